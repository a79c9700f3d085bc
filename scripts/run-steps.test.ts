/** The runner of `npm test`'s checks: side by side, each one's output whole and in order, the first failure's exit code. */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatResults, HELD_STEP_NICENESS, runSteps, type Step } from './run-steps.ts';

const nodeStep = (name: string, source: string): Step => ({ name, command: process.execPath, args: ['-e', source] });

describe('run-steps', () => {
  let folder: string;
  beforeAll(async () => (folder = await mkdtemp(join(tmpdir(), 'run-steps-'))));
  afterAll(() => rm(folder, { recursive: true, force: true }));

  it('runs the steps at once: the first finishes only when the second has started', async () => {
    const flag = join(folder, 'second-started');
    const waitsForSecond = `const fs = require('node:fs'); const check = () => fs.existsSync(${JSON.stringify(flag)}) ? console.log('saw the second') : setTimeout(check, 10); check(); setTimeout(() => process.exit(9), 20000).unref();`;
    const results = await runSteps([nodeStep('first', waitsForSecond), nodeStep('second', `require('node:fs').writeFileSync(${JSON.stringify(flag)}, '')`)]);
    expect(results.map(({ name, code, output }) => ({ name, code, output }))).toEqual([
      { name: 'first', code: 0, output: 'saw the second\n' },
      { name: 'second', code: 0, output: '' },
    ]);
  });

  it("prints each step's output whole under its name, in the given order, and names the failed ones", async () => {
    const results = await runSteps([
      nodeStep('slow-pass', "setTimeout(() => { console.log('one'); console.error('two'); }, 300)"),
      nodeStep('fast-fail', "console.error('broken: line 3'); process.exit(3)"),
      nodeStep('pass', "console.log('fine')"),
    ]);
    expect(results.map((result) => result.code)).toEqual([0, 3, 0]);
    const report = formatResults(results).replace(/\(\d+\.\d s/g, '(n s');
    expect(report).toBe('> slow-pass (n s)\none\ntwo\n\n> fast-fail (n s, exit 3)\nbroken: line 3\n\n> pass (n s)\nfine\n\nfailed: fast-fail\n');
  });

  it("a live step's output goes straight to the terminal, not into the report, while the others run beside it", async () => {
    const script = `import { runSteps, formatResults } from ${JSON.stringify(join(import.meta.dirname, 'run-steps.ts'))};
const node = process.execPath;
const results = await runSteps([
  { name: 'held', command: node, args: ['-e', "setTimeout(() => console.log('held output'), 200)"] },
  { name: 'live', command: node, args: ['-e', "console.log('live output'); process.exit(4)"], live: true },
]);
process.stdout.write('---\\n' + formatResults(results).replace(/\\(\\d+\\.\\d s/g, '(n s'));`;
    const file = join(folder, 'live.ts');
    await writeFile(file, script);
    const { stdout } = await promisify(execFile)(process.execPath, [file]);
    expect(stdout).toBe('live output\n---\n> held (n s)\nheld output\n\n> live (n s, exit 4)\n\nfailed: live\n');
  });

  it('runs a held step at a lower priority than itself (nice +10), so the live one, which the run waits for, goes first', async () => {
    const script = `import { getPriority } from 'node:os';
import { runSteps } from ${JSON.stringify(join(import.meta.dirname, 'run-steps.ts'))};
const node = process.execPath;
const [held] = await runSteps([
  { name: 'held', command: node, args: ['-e', "console.log(require('node:os').getPriority())"] },
  { name: 'live', command: node, args: ['-e', "console.log('live ' + require('node:os').getPriority())"], live: true },
]);
process.stdout.write('runner ' + getPriority() + '\\nheld ' + held.output);`;
    const file = join(folder, 'priority.ts');
    await writeFile(file, script);
    const { stdout } = await promisify(execFile)(process.execPath, [file]);
    const priorities = Object.fromEntries(stdout.trim().split('\n').map((line) => line.split(' ')).map(([name, value]) => [name, Number(value)]));
    expect(priorities).toEqual({ runner: priorities.runner, live: priorities.runner, held: Math.min(19, priorities.runner! + HELD_STEP_NICENESS) });
  });

  it('a command that cannot start is a failed step with the reason, not a crash', async () => {
    const [result] = await runSteps([{ name: 'missing', command: join(folder, 'no-such-tool'), args: [] }]);
    expect(result).toMatchObject({ name: 'missing', code: 1 });
    expect(result!.output).toContain('ENOENT');
  });
});
