/**
 * The server's own check of every answer body (answer-validator.ts, in place of
 * express-openapi-validator's response validation): a body that breaks the contract becomes a
 * logged 500, refunded and never cached; a cache hit is checked without its `data`, which was
 * checked before it was stored, and its envelope is checked as always.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations } from '../../generated/operations.ts';
import { sandboxProvider } from '../providers/sandbox/index.ts';
import type { DataProvider } from '../providers/types.ts';
import { startTestServer, type TestServer } from '../test-support/test-server.ts';
import { answerProblems } from './answer-validator.ts';

const listSocialEvents = operations.find((operation) => operation.operationId === 'listSocialEvents')!;
const envelope = { success: true, platform: 'socialnet', endpoint: '/socialnet/events', credits_used: 1, credits_remaining: 9, request_id: 'req_01JD4X2B4D6F8H0K2M4P6R8T0V', cached: true };
const brokenData = { source_url: 'https://social.example/groups/berlin-hikers' };

describe('answerProblems', () => {
  const cases = [
    { name: 'a whole body with data that breaks the contract', body: { ...envelope, data: brokenData }, dataFromCache: false, status: 200, problems: ["/response/data must have required property 'events'"] },
    { name: 'the same body with data from the cache (checked when stored)', body: { ...envelope, data: brokenData }, dataFromCache: true, status: 200, problems: [] },
    { name: 'a cache hit naming another platform', body: { ...envelope, platform: 'web', data: brokenData }, dataFromCache: true, status: 200, problems: ['/response/platform must be equal to constant'] },
    { name: 'a cache hit whose data is not an object', body: { ...envelope, data: [] }, dataFromCache: true, status: 200, problems: ['/response/data must be object'] },
    { name: 'a cache hit with a property the envelope does not have', body: { ...envelope, data: {}, extra: 1 }, dataFromCache: true, status: 200, problems: ['/response must NOT have additional properties'] },
    { name: 'a cache hit without its request id', body: { ...envelope, request_id: undefined, data: {} }, dataFromCache: true, status: 200, problems: ["/response must have required property 'request_id'"] },
    { name: 'a 422 that is not an error envelope', body: { ...envelope, data: {} }, dataFromCache: false, status: 422, problems: ["/response must have required property 'error'"] },
    { name: 'a status the operation does not declare', body: {}, dataFromCache: false, status: 418, problems: ["/response no schema defined for status code '418' in the openapi spec"] },
    { name: 'a 5xx (the answer to a failure, not checked)', body: {}, dataFromCache: false, status: 503, problems: [] },
  ];
  for (const { name, body, dataFromCache, status, problems } of cases) {
    it(`finds ${problems.length === 0 ? 'nothing' : problems.join('; ')} in ${name}`, () => {
      const found = answerProblems(listSocialEvents, status, JSON.parse(JSON.stringify(body)), dataFromCache).map((problem) => `${problem.path} ${problem.message}`);
      expect(problems.length === 0 ? found : found.filter((problem) => problems.includes(problem))).toEqual(problems);
    });
  }

  it('checks nothing for an answer that addresses no operation (404 for an unknown path, 405)', () => {
    expect(answerProblems(undefined, 404, {})).toEqual([]);
  });
});

describe('answers that break the contract', () => {
  let server: TestServer;
  let calls = 0;
  let broken = true;
  const sometimesBroken: DataProvider = {
    name: 'sometimes-broken',
    async fetch(call) {
      calls += 1;
      const data = await sandboxProvider.fetch(call);
      if (broken) delete (data as Record<string, unknown>).events;
      return data;
    },
  };
  beforeAll(async () => (server = await startTestServer({ providers: { sometimesBroken }, routes: { listSocialEvents: 'sometimesBroken' } })));
  afterAll(() => server.close());

  it('answers 500 internal_error, logged and refunded, and caches nothing: the next call asks the provider again', async () => {
    const { secret, id } = await server.key({ credits: 10, sandbox: false });
    const path = '/socialnet/events?url=https://social.example/groups/broken';
    const first = await server.call(path, { key: secret });
    expect([first.status, first.body.error.code, first.body.credits_used]).toEqual([500, 'internal_error', 0]);
    const logged = server.logLines.find((line) => line.msg === 'response does not match the contract' && line.request_id === first.body.request_id);
    expect(logged?.problems).toContainEqual({ path: '/response/data', message: "must have required property 'events'" });
    expect(await server.stores.ledger.balance(id)).toBe(10);

    broken = false;
    const second = await server.call(path, { key: secret });
    expect([second.status, second.headers.get('x-cache'), calls]).toEqual([200, 'MISS', 2]);
    const hit = await server.call(path, { key: secret });
    expect([hit.status, hit.headers.get('x-cache'), hit.body.cached, calls]).toEqual([200, 'HIT', true, 2]);
    expect(hit.body.data).toEqual(second.body.data);
  });
});
