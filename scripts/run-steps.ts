/**
 * `node scripts/run-steps.ts lint typecheck … [--live command args…]`: runs npm scripts side by
 * side, as `npm test` runs its checks beside vitest (each waits mostly on its own tool's start-up
 * or on servers, and none writes what another reads). Each step's output is held and printed whole,
 * in the order given, under a line naming it and its time; the live command, if any, runs at the
 * same time with its output straight to the terminal (vitest's progress), and the held report
 * follows when it ends. The held steps run at a lower priority (nice +10) than the live one: the
 * live command is what the run waits for, so the checks take the cores when it leaves them idle
 * (waiting on timers and servers) instead of slowing it (a wait-heavy vitest run beside the four
 * checks of `npm test`: ~32 s -> ~28 s, the checks still done before it ends). The exit code is the first
 * failed step's, 0 when all pass.
 */
import { spawn } from 'node:child_process';
import { getPriority, setPriority } from 'node:os';
import { performance } from 'node:perf_hooks';

/** A command to run and the name its output is printed under. */
export interface Step {
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
  /** Its output goes straight to this process's, as it comes, instead of being held. */
  readonly live?: boolean;
}

/** How a step ended: its exit code (1 when killed by a signal), its output (stdout and stderr as they came) and its time. */
export interface StepResult {
  readonly name: string;
  readonly code: number;
  readonly output: string;
  readonly seconds: number;
}

/** How much lower than this process's priority a held step runs (niceness, at most 19). */
export const HELD_STEP_NICENESS = 10;

/** Lowers the priority of a held step's process (its children inherit it); a process already gone keeps none to lower. */
function lowerPriority(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    setPriority(pid, Math.min(19, getPriority() + HELD_STEP_NICENESS));
  } catch {
    // It has already exited: nothing to lower.
  }
}

function runStep(step: Step, cwd: string): Promise<StepResult> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(step.command, step.args, { cwd, stdio: step.live ? 'inherit' : ['ignore', 'pipe', 'pipe'] });
    if (!step.live) lowerPriority(child.pid);
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk));
    const finish = (code: number, more = '') =>
      resolve({ name: step.name, code, output: output + more, seconds: (performance.now() - started) / 1000 });
    child.on('error', (error) => finish(1, `${error.message}\n`));
    child.on('close', (code) => finish(code ?? 1));
  });
}

/** Runs every step at once and resolves with their results in the order of `steps`. */
export function runSteps(steps: readonly Step[], cwd: string = process.cwd()): Promise<StepResult[]> {
  return Promise.all(steps.map((step) => runStep(step, cwd)));
}

/** The report of finished steps: each one's output under `> name (n.n s)`, then the failed ones named. */
export function formatResults(results: readonly StepResult[]): string {
  const sections = results.map(({ name, code, output, seconds }) => `> ${name} (${seconds.toFixed(1)} s${code === 0 ? '' : `, exit ${code}`})${output.trim() === '' ? '' : `\n${output.trimEnd()}`}`);
  const failed = results.filter((result) => result.code !== 0).map((result) => result.name);
  return [...sections, ...(failed.length > 0 ? [`failed: ${failed.join(', ')}`] : [])].join('\n\n') + '\n';
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const liveAt = args.indexOf('--live');
  const names = liveAt >= 0 ? args.slice(0, liveAt) : args;
  const [liveCommand, ...liveArgs] = liveAt >= 0 ? args.slice(liveAt + 1) : [];
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const steps: Step[] = names.map((name) => ({ name, command: npm, args: ['run', '--silent', name] }));
  if (liveCommand) steps.push({ name: [liveCommand, ...liveArgs].join(' '), command: liveCommand, args: liveArgs, live: true });
  const results = await runSteps(steps);
  process.stdout.write(formatResults(results));
  process.exitCode = results.find((result) => result.code !== 0)?.code ?? 0;
}
