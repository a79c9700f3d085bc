/**
 * `node scripts/cpu-profile-top.ts <file.cpuprofile> [count]`: the top functions of a V8 CPU profile
 * (`node --cpu-prof`) by self time, as a Markdown table, then the share of each package. How the
 * benchmarks' hot spots were found; profile a server under load with
 * `node --cpu-prof --cpu-prof-dir=/tmp/prof mock/main.ts` and stop it with SIGTERM.
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const [file, countText = '10'] = process.argv.slice(2);
if (!file) {
  console.error('usage: node scripts/cpu-profile-top.ts <file.cpuprofile> [count]');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));

/** `function file:line`, with node_modules/ shortened to the package path. */
function place(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  const where = url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*?\/(?=(mock|server|lib|scripts|generated)\/)/, '');
  return `${functionName || '(anonymous)'} ${where}${where ? `:${lineNumber + 1}` : ''}`;
}

function packageOf(node: ProfileNode): string {
  const { url, functionName } = node.callFrame;
  const match = /node_modules\/((@[^/]+\/)?[^/]+)/.exec(url);
  if (match) return match[1]!;
  if (url.startsWith('node:') || (url === '' && !functionName.startsWith('('))) return 'node';
  if (url === '') return functionName;
  return 'project';
}

const selfTime = new Map<string, number>();
const byPackage = new Map<string, number>();
let total = 0;
profile.samples.forEach((id, index) => {
  const node = nodes.get(id)!;
  const delta = profile.timeDeltas[index] ?? 0;
  total += delta;
  selfTime.set(place(node), (selfTime.get(place(node)) ?? 0) + delta);
  byPackage.set(packageOf(node), (byPackage.get(packageOf(node)) ?? 0) + delta);
});

const ms = (microseconds: number) => (microseconds / 1000).toFixed(0);
const share = (microseconds: number) => `${((100 * microseconds) / total).toFixed(1)}%`;
console.log(`${ms(total)} ms sampled\n\n| self ms | share | function |\n|---:|---:|---|`);
for (const [name, time] of [...selfTime].sort((a, b) => b[1] - a[1]).slice(0, Number(countText))) console.log(`| ${ms(time)} | ${share(time)} | ${name} |`);
console.log(`\nby package: ${[...byPackage].sort((a, b) => b[1] - a[1]).slice(0, 8).map(([name, time]) => `${name} ${share(time)}`).join(', ')}`);
