/**
 * The targets the shared cases run against, each started by the suite on a free loopback port:
 * today the mock (`npm run mock`); the real server joins here as a second target.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

export type TargetName = 'mock';

export interface RunningTarget {
  name: TargetName;
  /** Base URL including `/v1`. */
  baseUrl: string;
  stop(): Promise<void>;
}

const projectRoot = fileURLToPath(new URL('../..', import.meta.url));
const STARTUP_TIMEOUT_MS = 20_000;

/** Starts `node <entry>` with PORT=0 and waits for its "listening on http://…/v1" line. */
async function startProcess(name: TargetName, entry: string, env: Record<string, string> = {}): Promise<RunningTarget> {
  const child: ChildProcess = spawn(process.execPath, [entry], {
    cwd: projectRoot,
    env: { ...process.env, ...env, PORT: '0', HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let startupOutput = '';
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start within ${STARTUP_TIMEOUT_MS} ms:\n${startupOutput}`)), STARTUP_TIMEOUT_MS);
    const onOutput = (chunk: Buffer) => {
      startupOutput += chunk.toString();
      const match = /listening on (http:\/\/\S+\/v1)/.exec(startupOutput);
      if (match) {
        clearTimeout(timer);
        child.stdout!.off('data', onOutput);
        child.stderr!.off('data', onOutput);
        resolve(match[1]!);
      }
    };
    child.stdout!.on('data', onOutput);
    child.stderr!.on('data', onOutput);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited with ${code} before listening:\n${startupOutput}`));
    });
  });
  // The target logs a line per request: drain its output so it never blocks on a full pipe.
  child.stdout!.resume();
  child.stderr!.resume();
  return {
    name,
    baseUrl,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const [code] = (await exited) as [number | null];
      if (code !== 0) throw new Error(`${name} exited with ${code} on SIGTERM`);
    },
  };
}

const starters: Record<TargetName, () => Promise<RunningTarget>> = {
  mock: () => startProcess('mock', 'mock/main.ts'),
};

/** The targets to run: `CONTRACT_TARGETS` (comma-separated) or all of them. */
export function selectedTargets(): TargetName[] {
  const all = Object.keys(starters) as TargetName[];
  const wanted = process.env.CONTRACT_TARGETS?.split(',').map((name) => name.trim()).filter(Boolean);
  if (!wanted) return all;
  const unknown = wanted.filter((name) => !all.includes(name as TargetName));
  if (unknown.length > 0) throw new Error(`CONTRACT_TARGETS names unknown targets: ${unknown.join(', ')} (known: ${all.join(', ')})`);
  return wanted as TargetName[];
}

export function startTarget(name: TargetName): Promise<RunningTarget> {
  return starters[name]();
}
