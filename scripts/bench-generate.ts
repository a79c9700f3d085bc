/**
 * `npm run bench:generate`: the wall time of `npm run generate` (into a temporary folder, so
 * generated/ is left alone), 5 runs, beside the floor it cannot beat measured in the same run:
 * one `redocly lint` of the contract, which generate runs beside the bundler and openapi-typescript.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { goalReport, medianAndRange, roundsGoal } from './bench-goals.ts';
import { projectRoot } from './paths.ts';

const RUNS = 5;
const run = promisify(execFile);

async function wallMs(file: string, args: string[]): Promise<number> {
  const startedAt = performance.now();
  await run(file, args, { cwd: projectRoot });
  return performance.now() - startedAt;
}

const output = await mkdtemp(join(tmpdir(), 'bench-generate-'));
try {
  const generate: number[] = [];
  const redoclyStart: number[] = [];
  for (let index = 0; index < RUNS; index++) {
    generate.push(await wallMs(process.execPath, ['scripts/generate.ts', '--output', output]));
    redoclyStart.push(await wallMs(join(projectRoot, 'node_modules', '.bin', 'redocly'), ['lint', 'openapi/openapi.yaml', '--format=summary']));
  }
  const seconds = (values: number[]) => values.map((value) => value / 1000);
  console.log(`generate benchmark: ${RUNS} runs each, alternating; Node ${process.version}`);
  console.log(`  npm run generate (lint, bundle, types, operations, client): ${medianAndRange(seconds(generate))} s`);
  console.log(`  one redocly lint of the contract, the floor:               ${medianAndRange(seconds(redoclyStart))} s`);
  console.log(`  generate ÷ one lint: ${medianAndRange(generate.map((value, index) => value / redoclyStart[index]!))}`);
  console.log(goalReport([roundsGoal('npm run generate, wall time (s)', seconds(generate), '<', 3)]));
} finally {
  await rm(output, { recursive: true, force: true });
}
