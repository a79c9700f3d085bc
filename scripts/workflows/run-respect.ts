/**
 * Runs Redocly Respect (`redocly respect`) over Arazzo files against a base URL, and reads its
 * JSON report. The inputs (API keys among them) go to Respect as one JSON `--input`; Respect masks
 * inputs of `format: password` in what it prints.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { projectRoot } from '../paths.ts';
import { calledWorkflows } from './catalog.ts';

const redoclyCli = join(projectRoot, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');

/** The name of the contract in every workflow file's `sourceDescriptions`, whose server `--server` replaces. */
export const SOURCE_NAME = 'service';

export interface RespectRun {
  /** The Arazzo files to run, in order (Respect runs them one after the other). */
  files: string[];
  /** Base URL of the target, with `/v1`. */
  baseUrl: string;
  /** The workflows' inputs, by name. */
  inputs: Record<string, string>;
  /** Where Respect's own output goes (its progress, then a summary table). */
  write: (text: string) => void;
  /** Also keep Respect's JSON report here. */
  jsonOutput?: string;
}

export interface RespectReport {
  status: 'success' | 'warn' | 'error';
  files: Record<string, { executedWorkflows: { workflowId: string; executedSteps: unknown[] }[] }>;
}

export interface RespectResult {
  /** Respect's exit code: 0 when every workflow passed. */
  exitCode: number;
  /** Respect's JSON report, or null when it stopped before writing one (a file it could not read). */
  report: RespectReport | null;
}

/** Runs the files with Respect and returns its exit code and JSON report. */
export async function runRespect(run: RespectRun): Promise<RespectResult> {
  const folder = await mkdtemp(join(tmpdir(), 'workflows-'));
  const reportPath = run.jsonOutput ?? join(folder, 'respect.json');
  try {
    const args = [
      redoclyCli, 'respect', ...run.files.map((file) => relative(projectRoot, file)),
      '--server', `${SOURCE_NAME}=${run.baseUrl}`,
      '--input', JSON.stringify(run.inputs),
      '--skip', ...calledWorkflows,
      '--json-output', reportPath,
    ];
    const child = spawn(process.execPath, args, { cwd: projectRoot, env: { ...process.env, NO_COLOR: '1', REDOCLY_TELEMETRY: 'off' }, stdio: ['ignore', 'pipe', 'pipe'] });
    // Respect names the report it wrote; a report of our own, removed afterwards, goes unnamed.
    const shown = (chunk: Buffer) => (run.jsonOutput ? chunk.toString() : chunk.toString().replace(/^.*JSON logs saved in .*$\n?/m, ''));
    child.stdout.on('data', (chunk: Buffer) => run.write(shown(chunk)));
    child.stderr.on('data', (chunk: Buffer) => run.write(shown(chunk)));
    const exitCode = await new Promise<number>((resolve, reject) => {
      child.once('error', reject);
      child.once('close', (code) => resolve(code ?? 1));
    });
    const report = await readFile(reportPath, 'utf8').then((text) => JSON.parse(text) as RespectReport, () => null);
    return { exitCode, report };
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
