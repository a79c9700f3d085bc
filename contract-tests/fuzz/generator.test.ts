/**
 * The fuzzer's generators: every valid request is valid by the contract's own validator (the
 * rules across parameters and the prose included), every mutation makes a request invalid, each
 * kind of mutation is made somewhere, and a seed gives the same requests again.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { crossParameterProblem } from '../../lib/cross-parameter-rules.ts';
import { invalidRequests, MUTATION_KINDS, mutationsOf } from './mutations.ts';
import { fuzzOperation, fuzzOperations } from './operations.ts';
import { followMonitorRules } from './prose-values.ts';
import { requestProblems } from './request-problems.ts';
import { validRequests } from './valid-requests.ts';

const SEED = 20261123;

describe('valid requests', () => {
  for (const operation of fuzzOperations) {
    it(`${operation.operationId}: every one passes the contract's validator`, () => {
      fc.assert(fc.property(validRequests(operation), (request) => {
        expect(requestProblems(request)).toEqual([]);
      }), { seed: SEED, numRuns: 100 });
    });
  }

  it('honour the rules across parameters: exactly one of schema and prompt, range never with start, end never before start', () => {
    const today = new Date().toISOString().slice(0, 10);
    for (const request of fc.sample(validRequests(fuzzOperation('extractWebData')), { seed: SEED, numRuns: 200 })) {
      expect(request.query.filter(([name]) => name === 'schema' || name === 'prompt')).toHaveLength(1);
    }
    for (const request of fc.sample(validRequests(fuzzOperation('getPriceHistory')), { seed: SEED, numRuns: 200 })) {
      const query = Object.fromEntries(request.query);
      expect(query.range !== undefined && query.start !== undefined).toBe(false);
      if (query.end !== undefined) expect(query.end >= query.start!).toBe(true);
      if (query.start !== undefined && query.end === undefined) expect(query.start <= today).toBe(true);
      expect(crossParameterProblem('getPriceHistory', query, Date.now())).toBeUndefined();
    }
  });

  it("follow a monitor's rules across fields: one schedule, a query only in mode search, judge_enabled with a goal", () => {
    const shaped = followMonitorRules({ url: 'https://example.com', cadence_minutes: 5, schedule_text: 'hourly', schedule_cron: '* * * * *', query: 'q', judge_enabled: true }, 'create');
    expect(shaped).toEqual({ url: 'https://example.com', cadence_minutes: 5, query: 'q', mode: 'search', judge_enabled: false });
    expect(followMonitorRules({ url: 'https://example.com', mode: 'search' }, 'create')).toEqual({ url: 'https://example.com', mode: 'scrape' });
    for (const body of fc.sample(validRequests(fuzzOperation('createMonitor')), { seed: SEED, numRuns: 200 }).map((request) => request.body as Record<string, unknown>)) {
      expect(['cadence_minutes', 'schedule_text', 'schedule_cron'].filter((field) => field in body).length).toBeLessThanOrEqual(1);
      expect(body.query !== undefined).toBe(body.mode === 'search');
      if (body.judge_enabled === true) expect(body.goal).toBeDefined();
    }
  });

  it('leave out a cursor, which is valid only when the target issued it', () => {
    for (const request of fc.sample(validRequests(fuzzOperation('listJobs')), { seed: SEED, numRuns: 100 })) expect(request.query.map(([name]) => name)).not.toContain('cursor');
  });

  it('are the same for the same seed, and differ for another', () => {
    const operation = fuzzOperation('searchWeb');
    const first = fc.sample(validRequests(operation), { seed: SEED, numRuns: 20 });
    expect(fc.sample(validRequests(operation), { seed: SEED, numRuns: 20 })).toEqual(first);
    expect(fc.sample(validRequests(operation), { seed: SEED + 1, numRuns: 20 })).not.toEqual(first);
  });
});

describe('mutations', () => {
  for (const operation of fuzzOperations) {
    it(`${operation.operationId}: each one makes a valid request invalid`, () => {
      const requests = fc.sample(validRequests(operation), { seed: SEED, numRuns: 12 });
      for (const [index, mutation] of mutationsOf(operation).entries()) {
        for (const [run, chosen] of fc.sample(mutation, { seed: SEED + index, numRuns: requests.length }).entries()) {
          const mutated = chosen.apply(requests[run]!);
          expect(requestProblems(mutated), `${chosen.label}: ${JSON.stringify(mutated).slice(0, 400)}`).not.toEqual([]);
          expect(mutated.mutation).toBe(chosen.label);
        }
      }
    });
  }

  it('of every kind are made for some operation, each kind invalid', () => {
    const made = new Set(fuzzOperations.flatMap((operation) => fc.sample(invalidRequests(operation), { seed: SEED, numRuns: 120 }).map((request) => request.mutation!.split(' ')[0])));
    expect([...made].sort()).toEqual([...MUTATION_KINDS].sort());
  });

  it('leave out a wrong key for a target that accepts any key (the mock)', () => {
    const kinds = fc.sample(invalidRequests(fuzzOperation('listJobs'), ['missing']), { seed: SEED, numRuns: 120 }).map((request) => request.mutation!.split(' ')[0]);
    expect(kinds).toContain('missing-key');
    expect(kinds).not.toContain('wrong-key');
  });
});
