/** The server as `npm start` runs it (`node server/main.ts`), in a process of its own with the given environment, on an ephemeral loopback port. */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';

export interface ServerProcess {
  child: ChildProcess;
  /** Base URL including `/v1`. */
  baseUrl: string;
  /** The instance id it claims work under (its leases' owner), from its listening line. */
  instance: string;
  /** Sends SIGTERM and resolves with the exit code once the process has ended. */
  stop(): Promise<number | null>;
  /** Sends SIGKILL (a crash: nothing released) and resolves once the process has ended. */
  kill(): Promise<void>;
}

export async function startServerProcess(env: NodeJS.ProcessEnv): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['server/main.ts'], { env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk));
  const baseUrl = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk;
      const match = /listening on (\S+) .*instance ([^)\s]+)\)/.exec(output);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${output}`)));
  });
  child.stdout!.resume();
  child.stderr!.resume();
  const ended = () => child.exitCode !== null || child.signalCode !== null;
  return {
    child,
    baseUrl,
    instance: /instance ([^)\s]+)\)/.exec(output)![1]!,
    async stop() {
      if (ended()) return child.exitCode;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      return ((await exited) as [number | null])[0];
    },
    async kill() {
      if (ended()) return;
      const exited = once(child, 'exit');
      child.kill('SIGKILL');
      await exited;
    },
  };
}
