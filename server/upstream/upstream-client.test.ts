import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { errorCatalog } from '../../generated/errors.ts';
import { ProviderError } from '../providers/types.ts';
import { capturingLogger, html, json, oversized, slow, startFakeUpstream, type FakeAnswer, type FakeUpstream } from '../test-support/fake-upstream.ts';
import { UpstreamClient, type UpstreamClientConfig } from './upstream-client.ts';

const SECRET = 'sk-upstream-secret-0001';
const CONFIG: Omit<UpstreamClientConfig, 'baseUrl'> = { name: 'Fake Search', timeoutMs: 300, maxResponseBytes: 4096, maxInFlight: 2, headers: { authorization: `Bearer ${SECRET}` } };

let fake: FakeUpstream;
beforeAll(async () => { fake = await startFakeUpstream(); });
afterAll(async () => { await fake.close(); });

function client(overrides: Partial<UpstreamClientConfig> = {}, logger = pino({ level: 'silent' })): UpstreamClient {
  return new UpstreamClient({ ...CONFIG, baseUrl: fake.baseUrl, ...overrides }, logger);
}

async function failureOf(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(() => undefined, (reason: unknown) => reason);
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}

const failures: { name: string; answer: FakeAnswer; status: number; code: string; message: string; headers?: Record<string, string> }[] = [
  { name: '404 is 404 upstream_not_found', answer: json(404, { error: 'no such thing' }), status: 404, code: 'upstream_not_found', message: 'Fake Search answered 404: not found.' },
  { name: '410 is 404 upstream_not_found', answer: json(410, {}), status: 404, code: 'upstream_not_found', message: 'Fake Search answered 410: not found.' },
  { name: '400 is 400 upstream_rejected', answer: json(400, { error: 'bad q' }), status: 400, code: 'upstream_rejected', message: 'Fake Search rejected the request (it answered 400).' },
  { name: '422 is 400 upstream_rejected', answer: json(422, {}), status: 400, code: 'upstream_rejected', message: 'Fake Search rejected the request (it answered 422).' },
  { name: '429 with Retry-After is 503 upstream_rate_limited with that Retry-After', answer: json(429, {}, { 'retry-after': '17' }), status: 503, code: 'upstream_rate_limited', message: 'Fake Search throttles this service (it answered 429); retry in 17 seconds. No credits were used.', headers: { 'Retry-After': '17' } },
  { name: "429 with Brave's per-window X-RateLimit-Reset takes the exhausted window's reset", answer: json(429, {}, { 'X-RateLimit-Limit': '1, 15000', 'X-RateLimit-Remaining': '0, 14990', 'X-RateLimit-Reset': '1, 1419704' }), status: 503, code: 'upstream_rate_limited', message: 'Fake Search throttles this service (it answered 429); retry in 1 second. No credits were used.', headers: { 'Retry-After': '1' } },
  { name: "429 with OpenAI's x-ratelimit-reset-requests (6m0s) waits 360 seconds", answer: json(429, {}, { 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '6m0s', 'x-ratelimit-remaining-tokens': '100', 'x-ratelimit-reset-tokens': '20ms' }), status: 503, code: 'upstream_rate_limited', message: 'Fake Search throttles this service (it answered 429); retry in 360 seconds. No credits were used.', headers: { 'Retry-After': '360' } },
  { name: '429 without any reset header is 503 upstream_rate_limited with no invented Retry-After', answer: json(429, {}), status: 503, code: 'upstream_rate_limited', message: 'Fake Search throttles this service (it answered 429); retry later. No credits were used.', headers: {} },
  { name: '402 (quota exhausted) is 503 upstream_rate_limited', answer: json(402, { error: 'Insufficient credits' }), status: 503, code: 'upstream_rate_limited', message: 'Fake Search throttles this service (it answered 402); retry later. No credits were used.', headers: {} },
  { name: '401 is 503 provider_unavailable', answer: json(401, { error: 'bad key' }), status: 503, code: 'provider_unavailable', message: "Fake Search refuses this service's credential (it answered 401); no provider is available until the operator fixes it. No credits were used." },
  { name: '403 is 503 provider_unavailable', answer: json(403, {}), status: 503, code: 'provider_unavailable', message: "Fake Search refuses this service's credential (it answered 403); no provider is available until the operator fixes it. No credits were used." },
  { name: '500 is 502 upstream_failed', answer: json(500, { error: 'boom' }), status: 502, code: 'upstream_failed', message: 'Fake Search answered 500.' },
  { name: '503 is 502 upstream_failed', answer: json(503, {}), status: 502, code: 'upstream_failed', message: 'Fake Search answered 503.' },
  { name: '504 is 504 upstream_timeout', answer: json(504, {}), status: 504, code: 'upstream_timeout', message: 'Fake Search answered 504.' },
  { name: '301 (a redirect, not followed) is 502 upstream_failed', answer: json(301, {}, { location: 'http://elsewhere.example/' }), status: 502, code: 'upstream_failed', message: 'Fake Search answered 301.' },
  { name: 'HTML with 200 is 502 upstream_failed', answer: html(), status: 502, code: 'upstream_failed', message: 'Fake Search answered HTML instead of JSON.' },
  { name: 'malformed JSON with 200 is 502 upstream_failed', answer: json(200, '{"results": [1, 2'), status: 502, code: 'upstream_failed', message: 'Fake Search answered a body that is not JSON.' },
  { name: 'an answer past the time bound is 504 upstream_timeout', answer: slow(1000), status: 504, code: 'upstream_timeout', message: 'Fake Search did not answer within 300 ms.' },
  { name: 'an oversized chunked answer is 502 upstream_failed', answer: oversized(100_000), status: 502, code: 'upstream_failed', message: 'Fake Search answered more than 4096 bytes.' },
  { name: 'an oversized answer with its Content-Length is 502 upstream_failed', answer: json(200, { text: 'x'.repeat(10_000) }), status: 502, code: 'upstream_failed', message: 'Fake Search answered more than 4096 bytes.' },
];

describe('UpstreamClient', () => {
  it('sends the method, the base path + path, the query (absent values left out), the JSON body and the headers; answers the parsed JSON', async () => {
    fake.answer = json(200, { results: [{ title: 'One' }] }, { 'X-Custom': 'yes' });
    const answer = await client({ baseUrl: `${fake.baseUrl}/searxng/` }).request({
      method: 'POST', path: '/search', query: { q: 'planner launch', pageno: 2, safe: undefined, on: true }, body: { limit: 3 }, headers: { 'x-extra': 'e' }, signal: new AbortController().signal,
    });
    const sent = fake.requests.at(-1)!;
    expect(sent.method).toBe('POST');
    expect(sent.url).toBe('/searxng/search?q=planner+launch&pageno=2&on=true');
    expect(sent.body).toEqual({ limit: 3 });
    expect(sent.headers).toMatchObject({ authorization: `Bearer ${SECRET}`, 'x-extra': 'e', 'content-type': 'application/json', accept: 'application/json' });
    expect(answer).toEqual({ status: 200, headers: expect.objectContaining({ 'x-custom': 'yes' }), body: { results: [{ title: 'One' }] } });
  });

  it('credentials in the base URL become Basic authorization, and never appear in a message', async () => {
    fake.answer = json(500, {});
    const error = await failureOf(client({ baseUrl: `http://searx:pa%24s@${fake.baseUrl.slice('http://'.length)}`, headers: {} }).request({ method: 'GET', path: '/search', signal: new AbortController().signal }));
    expect(fake.requests.at(-1)!.headers.authorization).toBe(`Basic ${Buffer.from('searx:pa$s').toString('base64')}`);
    expect(error.message).toBe('Fake Search answered 500.');
  });

  it('an empty 200 answers a null body', async () => {
    fake.answer = (_request, response) => { response.writeHead(200); response.end(); };
    expect((await client().request({ method: 'GET', path: '/search', signal: new AbortController().signal })).body).toBeNull();
  });

  it('a status in readStatuses answers its parsed body for the adapter to read; the same status not listed is the table\'s failure', async () => {
    fake.answer = json(401, { code: 401, message: 'PRIVATE_TWEET' });
    const answer = await client().request({ method: 'GET', path: '/i/status/1', readStatuses: [401, 404], signal: new AbortController().signal });
    expect([answer.status, answer.body]).toEqual([401, { code: 401, message: 'PRIVATE_TWEET' }]);
    expect((await failureOf(client().request({ method: 'GET', path: '/i/status/1', readStatuses: [404], signal: new AbortController().signal }))).code).toBe('provider_unavailable');
  });

  it.each(failures)('$name', async ({ answer, status, code, message, headers }) => {
    fake.answer = answer;
    const error = await failureOf(client().request({ method: 'GET', path: '/search', signal: new AbortController().signal }));
    expect(errorCatalog[error.code].status).toBe(status);
    expect(error.code).toBe(code);
    expect(error.message).toBe(message);
    if (headers) expect(error.headers).toEqual(headers);
    expect(error.message).not.toContain(SECRET);
    expect(error.message).not.toContain('127.0.0.1');
  });

  it.each([401, 403])('a %s is logged at error level for the operator, naming the provider and never the credential', async (status) => {
    fake.answer = json(status, {});
    const log = capturingLogger();
    await failureOf(client({}, log.logger).request({ method: 'GET', path: '/search', signal: new AbortController().signal }));
    expect(log.lines()).toContainEqual(expect.objectContaining({ level: 50, provider: 'Fake Search', status, msg: "Fake Search refuses the operator's credential: check its key in the configuration" }));
    expect(log.text()).not.toContain(SECRET);
  });

  it('an upstream that refuses the connection is 503 provider_unavailable, logged at error level', async () => {
    const closed = await startFakeUpstream();
    const baseUrl = closed.baseUrl;
    await closed.close();
    const log = capturingLogger();
    const error = await failureOf(new UpstreamClient({ ...CONFIG, baseUrl }, log.logger).request({ method: 'GET', path: '/search', signal: new AbortController().signal }));
    expect(error.code).toBe('provider_unavailable');
    expect(error.message).toBe('Fake Search cannot be reached; no provider is available until the operator fixes it. No credits were used.');
    expect(log.lines()).toContainEqual(expect.objectContaining({ level: 50, provider: 'Fake Search', cause: 'ECONNREFUSED' }));
  });

  it('never has more than maxInFlight calls in flight; the others wait their turn and all are answered', async () => {
    const busy = await startFakeUpstream(slow(60, { ok: true }));
    try {
      const calls = new UpstreamClient({ ...CONFIG, baseUrl: busy.baseUrl, timeoutMs: 2000, maxInFlight: 2 }, pino({ level: 'silent' }));
      const answers = await Promise.all(Array.from({ length: 7 }, () => calls.request({ method: 'GET', path: '/search', signal: new AbortController().signal })));
      expect(busy.requests).toHaveLength(7);
      expect(busy.maxInFlight()).toBe(2);
      expect(answers.map((answer) => answer.body)).toEqual(Array(7).fill({ ok: true }));
    } finally {
      await busy.close();
    }
  });

  it("the caller's abort stops the call with the caller's reason, not an upstream error", async () => {
    fake.answer = slow(1000);
    const caller = new AbortController();
    const call = client({ timeoutMs: 5000 }).request({ method: 'GET', path: '/search', signal: caller.signal });
    setTimeout(() => caller.abort(new Error('the caller gave up')), 50);
    await expect(call).rejects.toThrow('the caller gave up');
  });

  it('a call waiting for a place is bounded by the time bound too', async () => {
    const busy = await startFakeUpstream(slow(400, {}));
    try {
      const one = new UpstreamClient({ ...CONFIG, baseUrl: busy.baseUrl, timeoutMs: 250, maxInFlight: 1 }, pino({ level: 'silent' }));
      const results = await Promise.allSettled([1, 2].map(() => one.request({ method: 'GET', path: '/search', signal: new AbortController().signal })));
      expect(results.map((result) => result.status === 'rejected' && (result.reason as ProviderError).code)).toEqual(['upstream_timeout', 'upstream_timeout']);
      expect(busy.requests).toHaveLength(1);
    } finally {
      await busy.close();
    }
  });
});
