/**
 * Server instances as real processes (`node server/main.ts`) on one database, for the tests of what
 * holds across instances: started on ephemeral loopback ports, stopped with SIGTERM or killed
 * with SIGKILL, each known by the instance id it prints when it starts listening.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';

export interface Instance {
  /** `http://127.0.0.1:<port>/v1`. */
  baseUrl: string;
  /** The id it claims work under (its leases' owner). */
  id: string;
  child: ChildProcess;
  output(): string;
  /** Sends `signal` and resolves with the exit code (null when killed by a signal). */
  stop(signal: 'SIGTERM' | 'SIGKILL'): Promise<number | null>;
}

/** Starts `node server/main.ts` with `env` over the test's environment; resolves once it listens. */
export async function startInstance(env: Record<string, string>): Promise<Instance> {
  const child = spawn(process.execPath, ['server/main.ts'], { env: { ...process.env, PORT: '0', LOG_LEVEL: 'warn', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk));
  const listening = /listening on (\S+) \(.*instance (\S+)\)/;
  await new Promise<void>((resolve, reject) => {
    const check = () => {
      if (listening.test(output)) resolve();
      else if (child.exitCode !== null) reject(new Error(`the instance exited with ${child.exitCode}: ${output}`));
      else setTimeout(check, 25);
    };
    check();
  });
  const [, baseUrl, id] = listening.exec(output)!;
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  return {
    baseUrl: baseUrl!,
    id: id!,
    child,
    output: () => output,
    async stop(signal) {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** Creates a key with the key command on the database of `env`; answers its secret. */
export function createKey(env: Record<string, string>, options: string[]): string {
  const created = spawnSync(process.execPath, ['server/cli/keys.ts', 'create', ...options], { env: { ...process.env, ...env }, encoding: 'utf8' });
  if (created.status !== 0) throw new Error(`key:create failed: ${created.stderr}`);
  return created.stdout.trim().split('\n').at(-1)!;
}
