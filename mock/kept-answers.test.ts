/**
 * What the mock keeps between requests (mock/README.md, "What the mock keeps"), and that keeping it
 * changes no answer: Prism's static answer to a valid request, the sandbox's data for a request,
 * the address policy's verdict on a URL. Every request is still validated; a kept answer is shared
 * frozen, so no request can change what the next one gets.
 */
import { describe, expect, it } from 'vitest';
import { operations } from '../generated/operations.ts';
import { contractPath } from '../lib/contract-document.ts';
import { refusedTarget } from './address-check.ts';
import { createPrismEngine, type MockRequest } from './prism-engine.ts';
import { shapeSuccess } from './shape-answer.ts';

const scrapeOperation = operations.find((operation) => operation.operationId === 'scrapeWebPage')!;
const SCRAPE: MockRequest = { operationId: 'scrapeWebPage', method: 'GET', path: '/web/scrape', query: { url: 'https://example.com/a' }, headers: { 'x-api-key': 'k' } };

describe("Prism's static answer to a valid request, negotiated once", () => {
  it('is the same answer for the same operation, status and example, shared frozen', async () => {
    const engine = await createPrismEngine(contractPath);
    const first = await engine.respond(SCRAPE, {});
    const second = await engine.respond({ ...SCRAPE, query: { url: 'https://example.com/b' } }, {});
    if (first.kind !== 'answer' || second.kind !== 'answer') throw new Error('expected answers');
    expect([first.status, first.diagnostics]).toEqual([200, []]);
    expect(second.body).toBe(first.body);
    expect(Object.isFrozen((first.body as { data: object }).data)).toBe(true);
    const fresh = await (await createPrismEngine(contractPath)).respond(SCRAPE, {});
    expect(fresh.kind === 'answer' && fresh.body).toEqual(first.body);
  });

  it('does not spare the validation: an invalid request after a kept answer gets its diagnostics and the error answer', async () => {
    const engine = await createPrismEngine(contractPath);
    await engine.respond(SCRAPE, {});
    const invalid = await engine.respond({ ...SCRAPE, query: { url: 'https://example.com/a', wait_for: 'soon' } }, {});
    const missing = await engine.respond({ ...SCRAPE, query: {} }, {});
    for (const result of [invalid, missing]) {
      if (result.kind !== 'answer') throw new Error('expected an answer');
      expect(result.status).toBe(422);
      expect(result.diagnostics.length).toBeGreaterThan(0);
    }
  });

  it('is negotiated anew for another status, example or Accept', async () => {
    const engine = await createPrismEngine(contractPath);
    const plain = await engine.respond(SCRAPE, {});
    const cases: { preferences: object; headers: Record<string, string>; expected: object }[] = [
      { preferences: { code: 503 }, headers: {}, expected: { kind: 'answer', status: 503 } },
      { preferences: { exampleKey: 'links_and_html' }, headers: {}, expected: { kind: 'answer', status: 200 } },
      { preferences: {}, headers: { accept: 'text/plain' }, expected: { kind: 'selection-problem', status: 406 } },
    ];
    for (const { preferences, headers, expected } of cases) {
      const result = await engine.respond({ ...SCRAPE, headers: { ...SCRAPE.headers, ...headers } }, preferences as never);
      expect(result, JSON.stringify(preferences)).toMatchObject(expected);
      if (result.kind === 'answer' && plain.kind === 'answer') expect(result.body).not.toEqual(plain.body);
    }
  });

  it('is never kept for dynamic answers: each seed draws its own', async () => {
    const engine = await createPrismEngine(contractPath);
    const [one, two] = await Promise.all(['1', '2'].map((seed) => engine.respond(SCRAPE, { dynamic: true, seed })));
    expect(one!.kind === 'answer' && two!.kind === 'answer' && one!.body !== two!.body).toBe(true);
    expect(one).not.toEqual(two);
  });
});

describe("Prism's routing verdict, kept by operation, method and path", () => {
  it('follows the method on the operation\'s own path, and the path on a templated one', async () => {
    const engine = await createPrismEngine(contractPath);
    const JOB: MockRequest = { operationId: 'getJob', method: 'GET', path: '/web/jobs/job_01M7W3QYVRK6724RN1MPS1JQRE', query: {}, headers: { 'x-api-key': 'k' } };
    const calls: MockRequest[] = [SCRAPE, { ...SCRAPE, method: 'POST' }, SCRAPE, { ...SCRAPE, method: 'POST' }, JOB, { ...JOB, path: '/web/monitors/mon_01M7W3QYVRK6724RN1MPS1JQRE' }, JOB];
    const outcomes = [];
    for (const call of calls) {
      const result = await engine.respond(call, {});
      outcomes.push(result.kind === 'answer' ? result.status : `${result.kind} ${result.status}`);
    }
    expect(outcomes).toEqual([200, 'selection-problem 405', 200, 'selection-problem 405', 200, 'selection-problem 404', 200]);
  });
});

describe("the sandbox's data for a request, kept by operation and query", () => {
  const shape = (query: Record<string, string>) => shapeSuccess(
    { operation: scrapeOperation, path: '/web/scrape', query: new URLSearchParams(query), body: undefined, preferences: {}, balance: 5000 },
    { success: true, platform: 'web', endpoint: '/web/scrape', credits_used: 1, credits_remaining: 5000, request_id: 'req_x', cached: false, data: {} },
  );

  it('is shared frozen by every call with the same request', async () => {
    const query = { url: 'https://example.com/kept', formats: 'markdown,links' };
    const [first, second] = [await shape(query), await shape(query)];
    if (!first.ok || !second.ok) throw new Error('expected data');
    expect(second.envelope.data).toBe(first.envelope.data);
    expect(Object.isFrozen(first.envelope.data)).toBe(true);
    expect(first.envelope.data).toMatchObject({ url: query.url, markdown: expect.any(String), links: expect.any(Array) });
  });

  it('still waits for wait_for on every call: the wait is part of the answer', async () => {
    const query = { url: 'https://example.com/slow', wait_for: '150' };
    await shape(query);
    const startedAt = performance.now();
    const again = await shape(query);
    expect(again.ok).toBe(true);
    expect(performance.now() - startedAt).toBeGreaterThanOrEqual(140);
  });

  it('keeps a magic failure as the same error', async () => {
    const query = { url: 'https://fail-404.sandbox.test/page' };
    const [first, second] = [await shape(query), await shape(query)];
    expect(first).toEqual({ ok: false, code: expect.any(String), message: expect.any(String) });
    expect(second).toEqual(first);
  });
});

describe("the address policy's verdict on a URL, kept by URL and parameter", () => {
  const cases = [
    { url: 'https://example.com/', refused: undefined },
    { url: 'http://127.0.0.1/', refused: 'url_not_allowed' },
    { url: 'http://localhost/', refused: 'url_not_allowed' },
    { url: 'not a url', refused: 'invalid_parameters' },
  ];

  it.each(cases)('$url: the same verdict on every call', ({ url, refused }) => {
    const verdicts = [1, 2, 3].map(() => refusedTarget(scrapeOperation, new URLSearchParams({ url }), undefined));
    expect(verdicts.map((verdict) => verdict?.code)).toEqual([refused, refused, refused]);
    expect(verdicts[1]).toEqual(verdicts[0]);
  });
});
