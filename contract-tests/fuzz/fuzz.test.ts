/**
 * CI's fuzzing budget: at least 1,000 requests on each target, the mock and the server on a
 * temporary database with a sandbox key of its own, from a fixed seed, and not one check fails.
 * A failure here prints the summary with each shrunk request's `curl` line and the command that
 * repeats the run (`npm run fuzz -- --target … --seed 20261123`).
 */
import { describe, expect, it } from 'vitest';
import { formatReport } from './report.ts';
import { fuzz } from './run.ts';
import { startTarget, type TargetKind } from './targets.ts';

const SEED = 20261123;
const BUDGET = 1000;

describe.concurrent('the fuzzing budget', () => {
  for (const kind of ['mock', 'server'] as TargetKind[]) {
    it(`finds nothing in ${BUDGET} requests on the ${kind}`, async () => {
      const target = await startTarget(kind);
      try {
        const report = await fuzz({ target, requests: BUDGET, seed: SEED });
        expect(report.failures, formatReport(report)).toEqual([]);
        expect(report.requests).toBeGreaterThanOrEqual(BUDGET);
        expect(Object.keys(report.requestsPerOperation)).toHaveLength(19);
      } finally {
        await target.stop();
      }
    }, 240_000);
  }
});
