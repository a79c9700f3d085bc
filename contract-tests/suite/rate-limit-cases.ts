/**
 * The IETF RateLimit fields on every answer to a call with a valid key, so a caller can pace
 * itself before it meets a 429: on a 200, on a 4xx (a refused request, a denied scope) and on the
 * 429 itself, where `r` is 0 and `t` agrees with `Retry-After`; never on a 401 (no key, no policy).
 */
import { expect } from 'vitest';
import { contractOperations } from '../contract.ts';
import type { ContractCase } from './cases.ts';
import type { CallResult } from './valid-requests.ts';

const listJobs = contractOperations().find((operation) => operation.operationId === 'listJobs')!;
const base = { operation: listJobs, method: 'GET', path: '/web/jobs' };

/** `r` and `t` of `RateLimit`, `q` and `w` of `RateLimit-Policy`; each field as the contract's pattern has it. */
function rateLimitOf(answer: CallResult): { r: number; t: number; q: number; w: number } {
  const field = /^"per-key";r=(\d+);t=(\d+)$/.exec(answer.headers.get('RateLimit') ?? '');
  const policy = /^"per-key";q=(\d+);w=(\d+)$/.exec(answer.headers.get('RateLimit-Policy') ?? '');
  expect(field, `RateLimit "${answer.headers.get('RateLimit')}"`).not.toBeNull();
  expect(policy, `RateLimit-Policy "${answer.headers.get('RateLimit-Policy')}"`).not.toBeNull();
  return { r: Number(field![1]), t: Number(field![2]), q: Number(policy![1]), w: Number(policy![2]) };
}

/** Fields a caller can pace itself by: requests left below the quota, a reset within the window. */
function expectPacingFields(answer: CallResult): void {
  const { r, t, q, w } = rateLimitOf(answer);
  expect(r).toBeLessThan(q);
  expect(t).toBeGreaterThanOrEqual(1);
  expect(t).toBeLessThanOrEqual(w);
}

/** The 429's fields: nothing left, and the reset `Retry-After` names. */
function expectExhaustedFields(answer: CallResult): void {
  const { r, t } = rateLimitOf(answer);
  expect(r).toBe(0);
  expect(t).toBe(Number(answer.headers.get('Retry-After')));
}

export const rateLimitCases: ContractCase[] = [
  { ...base, name: 'a 200 carries the key\'s RateLimit and RateLimit-Policy (answered them on 429 only)', expected: { status: 200, check: expectPacingFields } },
  {
    ...base,
    name: 'a refused request (422) carries the key\'s RateLimit and RateLimit-Policy (answered them on 429 only)',
    query: { limit: '0' },
    expected: { status: 422, code: 'invalid_parameters', check: expectPacingFields },
  },
  {
    ...base,
    name: 'a key without the operation\'s scope gets 403 with its RateLimit fields (was refused before the rate limit counted it)',
    keyRole: 'financeOnly',
    expected: { status: 403, code: 'scope_denied', check: expectPacingFields },
  },
  {
    ...base,
    name: 'a 401 carries no RateLimit fields: no key, no policy',
    withoutKey: true,
    expected: { status: 401, code: 'api_key_missing', check: (answer) => expect([answer.headers.get('RateLimit'), answer.headers.get('RateLimit-Policy')]).toEqual([null, null]) },
  },
  { ...base, name: 'a key past its rate limit gets 429 with r=0 and t equal to Retry-After', keyRole: 'rateLimited', expected: { status: 429, code: 'rate_limited', check: expectExhaustedFields } },
  {
    ...base,
    name: 'a selected 429 on the mock has r=0 and t equal to Retry-After',
    headers: { Prefer: 'code=429' },
    only: ['mock'],
    expected: { status: 429, code: 'rate_limited', check: expectExhaustedFields },
  },
];
