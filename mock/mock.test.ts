/**
 * What the mock adds to Prism, beyond the shared contract cases: its log line per request (CORS is
 * in lib/cors.test.ts, with the server's), Prism's query-string selection, cache headers that follow the request, error
 * envelopes that name the operation called, the generated client against it, and its process
 * (PORT, signals).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { Agent, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createQueryClient } from '../generated/client.ts';
import { operations } from '../generated/operations.ts';
import { operationName } from '../lib/error-messages.ts';
import { validRequests } from '../contract-tests/suite/valid-requests.ts';
import { declaredAnswers } from './declared-answers.ts';
import { contractPath } from '../lib/contract-document.ts';
import { createMockServer } from './create-mock-server.ts';
import { createPrismEngine } from './prism-engine.ts';

const KEY = { 'x-api-key': 'wsdq_mock_test' };

describe('the mock server', () => {
  let server: Server;
  let origin: string;
  const logLines: string[] = [];

  beforeAll(async () => {
    server = createMockServer({ engine: await createPrismEngine(contractPath), log: (line) => logLines.push(line) });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("links an error to /docs at the Host each request gave, requests on one connection included", async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const port = new URL(origin).port;
    const docUrl = (host: string) => new Promise<{ docUrl: string; reused: boolean }>((resolve, reject) => {
      const outgoing = request(`${origin}/v1/nowhere`, { agent, headers: { ...KEY, host } }, (answer) => {
        let text = '';
        answer.setEncoding('utf8').on('data', (chunk: string) => (text += chunk)).on('end', () => resolve({ docUrl: JSON.parse(text).error.doc_url, reused: outgoing.reusedSocket }));
      });
      outgoing.on('error', reject).end();
    });
    try {
      const answers = [];
      for (const host of [`localhost:${port}`, 'mock.example:8080', 'not a host', `localhost:${port}`]) answers.push(await docUrl(host));
      expect(answers).toEqual([
        { docUrl: `http://localhost:${port}/docs#section/endpoint_not_found`, reused: false },
        { docUrl: 'http://mock.example:8080/docs#section/endpoint_not_found', reused: true },
        { docUrl: `http://127.0.0.1:${port}/docs#section/endpoint_not_found`, reused: true },
        { docUrl: `http://localhost:${port}/docs#section/endpoint_not_found`, reused: true },
      ]);
    } finally {
      agent.destroy();
    }
  });

  it('logs one line per request with method, path, status and duration', async () => {
    const before = logLines.length;
    await fetch(`${origin}/v1/web/scrape?url=https://example.com`, { headers: KEY });
    await fetch(`${origin}/v1/nowhere`, { headers: KEY });
    expect(logLines.slice(before)).toEqual([
      expect.stringMatching(/^\S+Z GET \/v1\/web\/scrape 200 \d+\.\dms$/),
      expect.stringMatching(/^\S+Z GET \/v1\/nowhere 404 \d+\.\dms$/),
    ]);
  });

  it("selects answers with Prism's __code and __example query parameters too", async () => {
    const unavailable = await fetch(`${origin}/v1/finance/history?symbol=AAPL&__code=503`, { headers: KEY });
    expect(unavailable.status).toBe(503);
    const weekly = await fetch(`${origin}/v1/finance/history?symbol=BTC-USD&__example=weekly_crypto`, { headers: KEY });
    expect((await weekly.json()).data.interval).toBe('1wk');
  });

  it('refuses a malformed Prefer header with a precise 422', async () => {
    const answer = await fetch(`${origin}/v1/web/jobs`, { headers: { ...KEY, Prefer: 'code=abc' } });
    expect(answer.status).toBe(422);
    expect((await answer.json()).error.message).toBe('Invalid parameters: Prefer code=abc is not an HTTP status code.');
  });

  it('reports X-Cache as the request allows: MISS, BYPASS with no-cache, HIT only for a cached example', async () => {
    const events = `${origin}/v1/socialnet/events?url=https://social.example/groups/berlin-hikers`;
    const miss = await fetch(events, { headers: { ...KEY, Prefer: 'example=first_page_miss' } });
    expect([miss.headers.get('x-cache'), (await miss.json()).cached]).toEqual(['MISS', false]);
    const bypass = await fetch(events, { headers: { ...KEY, Prefer: 'example=last_page_hit', 'Cache-Control': 'no-cache' } });
    expect([bypass.headers.get('x-cache'), (await bypass.json()).cached]).toEqual(['BYPASS', false]);
    const hit = await fetch(events, { headers: { ...KEY, Prefer: 'example=last_page_hit' } });
    expect([hit.headers.get('x-cache'), (await hit.json()).cached]).toEqual(['HIT', true]);

    const scrapeWithoutMaxAge = await fetch(`${origin}/v1/web/scrape?url=https://example.com/pricing`, { headers: { ...KEY, Prefer: 'example=links_and_html' } });
    expect([scrapeWithoutMaxAge.headers.get('x-cache'), (await scrapeWithoutMaxAge.json()).cached]).toEqual(['BYPASS', false]);
  });

  it('names the called operation in error envelopes selected from shared examples', async () => {
    const answer = await fetch(`${origin}/v1/web/scrape?url=https://example.com`, { headers: { ...KEY, Prefer: 'code=503' } });
    const body = await answer.json();
    expect([answer.status, body.platform, body.endpoint, body.error.code]).toEqual([503, 'web', '/web/scrape', 'provider_unavailable']);
  });

  describe('an error status selected with Prefer names the operation called and its real figures', () => {
    const PATH_IDS: Record<string, string> = { job_id: 'job_01M7W3QYVRK6724RN1MPS1JQRE', monitor_id: 'mon_01JD8XE6SZAEAVSNTCPM5Q1NXW' };
    const names = operations.map((operation) => operationName(operation));
    const cases = operations.flatMap((operation) =>
      [...declaredAnswers(operation).keys()].filter((status) => status !== 200).map((status) => ({ operation, status, label: `${operation.operationId} code=${status}` })));

    // Before: `Prefer: code=503` on web/scrape said "No provider is configured for finance/history", `code=402` "web/extract costs 5 credits".
    it.each(cases)('$label: the message names no other operation, and a 402 the real cost and a balance below it', async ({ operation, status }) => {
      const valid = validRequests[operation.operationId];
      const url = new URL(`${origin}/v1${operation.path.replace(/\{(\w+)\}/g, (_, name: string) => PATH_IDS[name]!)}`);
      for (const [name, value] of Object.entries(valid.query ?? {})) url.searchParams.set(name, value);
      const answer = await fetch(url, {
        method: operation.method,
        headers: { ...KEY, Prefer: `code=${status}`, ...(valid.body ? { 'content-type': 'application/json' } : {}) },
        body: valid.body ? JSON.stringify(valid.body) : undefined,
      });
      const body = await answer.json();
      expect(answer.status).toBe(status);
      const message: string = body.error.message;
      const own = operationName(operation);
      const others = names.filter((name) => name !== own && !own.startsWith(`${name}/`));
      expect(others.filter((name) => message.replaceAll(own, '').includes(name)), message).toEqual([]);
      if (status === 402) {
        expect(message).toContain(`${own} costs ${operation.creditCost} credit`);
        expect(message).toContain(`the balance is ${body.credits_remaining}.`);
        expect(body.credits_remaining).toBe(Math.max(0, operation.creditCost - 1));
        expect(answer.headers.get('x-credits-remaining')).toBe(String(body.credits_remaining));
      }
      if (status === 403 || status === 503) expect(message).toContain(own);
    });
  });

  it('answers __code=402 on web/scrape with web/scrape\'s cost and a balance below it (it said "web/extract costs 5 credits")', async () => {
    const answer = await fetch(`${origin}/v1/web/scrape?url=https://example.com&__code=402`, { headers: KEY });
    const body = await answer.json();
    expect([answer.status, body.credits_remaining, body.error.message]).toEqual([402, 0, 'Insufficient credits: web/scrape costs 1 credit, the balance is 0.']);
  });

  it('answers a 404 of an operation with an id as resource_not_found naming that id, and of another with upstream_not_found', async () => {
    const job = await fetch(`${origin}/v1/web/jobs/job_01M7W3QYVRK6724RN1MPS1JQRE`, { headers: { ...KEY, Prefer: 'code=404' } });
    expect((await job.json()).error).toMatchObject({ code: 'resource_not_found', message: 'No job job_01M7W3QYVRK6724RN1MPS1JQRE for this API key.' });
    const scrape = await fetch(`${origin}/v1/web/scrape?url=https://example.com`, { headers: { ...KEY, Prefer: 'code=404' } });
    expect((await scrape.json()).error).toMatchObject({ code: 'upstream_not_found', message: 'The upstream of web/scrape answered 404 Not Found.' });
  });

  it('answers a path id no job or monitor can have (%00, ..%2F, job_1) with 404 resource_not_found, not a record echoing an id off its pattern', async () => {
    const cases = [
      { method: 'GET', path: '/web/jobs/%00', message: 'No job \u0000 for this API key.' },
      { method: 'DELETE', path: '/web/jobs/..%2F', message: 'No job ../ for this API key.' },
      { method: 'GET', path: '/web/jobs/job_1', message: 'No job job_1 for this API key.' },
      { method: 'GET', path: '/web/monitors/%2500', message: 'No monitor %00 for this API key.' },
      { method: 'PATCH', path: '/web/monitors/mon_01JD8XE6SZAEAVSNTCPM5Q1NX', message: 'No monitor mon_01JD8XE6SZAEAVSNTCPM5Q1NX for this API key.' },
      { method: 'DELETE', path: '/web/monitors/%F0%9F%A7%AA', message: 'No monitor \u{1F9EA} for this API key.' },
    ];
    for (const { method, path, message } of cases) {
      const answer = await fetch(`${origin}/v1${path}`, { method, headers: KEY });
      const body = await answer.json();
      expect([answer.status, body.error.code, body.error.message], `${method} ${path}`).toEqual([404, 'resource_not_found', message]);
    }
    const echoed = await fetch(`${origin}/v1/web/jobs/job_01M7W3QYVRK6724RN1MPS1JQRE`, { headers: KEY });
    expect([echoed.status, (await echoed.json()).data.job.id]).toEqual([200, 'job_01M7W3QYVRK6724RN1MPS1JQRE']);
  });

  it('answers a path with malformed percent-encoding (%FF, a lone %) with 422 invalid_parameters naming the path, not a 500', async () => {
    for (const path of ['/v1/web/jobs/%FF', '/v1/web/monitors/%', '/v1/web/jobs/job_%E0%A4%A']) {
      const answer = await fetch(`${origin}${path}`, { headers: KEY });
      const body = await answer.json();
      expect([answer.status, body.error.code, body.error.message], path).toEqual([422, 'invalid_parameters', `Invalid parameters: the path ${path} is not well-formed percent-encoded UTF-8.`]);
    }
  });

  it('refuses a JSON null body with 422 "body must be object", as the server does (it answered 200)', async () => {
    const answer = await fetch(`${origin}/v1/web/monitors/mon_01JD8XE6SZAEAVSNTCPM5Q1NXW`, { method: 'PATCH', headers: { ...KEY, 'content-type': 'application/json' }, body: 'null' });
    const body = await answer.json();
    expect([answer.status, body.error.code, body.error.message]).toEqual([422, 'invalid_parameters', 'Invalid parameters: body must be object.']);
  });

  it('refuses URLs of non-public addresses with 422 url_not_allowed as the server does, in the query and in bodies (it answered 200)', async () => {
    const cases = [
      { method: 'GET', path: '/web/scrape?url=http%3A%2F%2F127.0.0.1%2F', body: undefined, code: 'url_not_allowed' },
      { method: 'GET', path: '/socialnet/events?url=http%3A%2F%2F10.0.0.1%2F', body: undefined, code: 'url_not_allowed' },
      { method: 'POST', path: '/web/crawl', body: { url: 'http://169.254.169.254/latest/meta-data/' }, code: 'url_not_allowed' },
      { method: 'POST', path: '/web/agent', body: { url: 'https://a.0/', prompt: 'x' }, code: 'invalid_parameters' },
      { method: 'POST', path: '/web/monitors', body: { url: 'https://example.com', webhook_url: 'http://localhost/hook' }, code: 'url_not_allowed' },
      { method: 'POST', path: '/web/batch-scrape', body: { urls: ['https://example.com/a', 'http://[::1]/'] }, code: 'url_not_allowed' },
      { method: 'POST', path: '/web/batch-scrape', body: { urls: ['http://[::1]/'], ignore_invalid_urls: true }, code: 'invalid_parameters' },
    ];
    for (const { method, path, body, code } of cases) {
      const answer = await fetch(`${origin}/v1${path}`, { method, headers: { ...KEY, 'content-type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}) });
      expect([answer.status, (await answer.json()).error?.code], `${method} ${path}`).toEqual([422, code]);
    }
    const skipped = await fetch(`${origin}/v1/web/batch-scrape`, { method: 'POST', headers: { ...KEY, 'content-type': 'application/json' }, body: JSON.stringify({ urls: ['https://example.com/a', 'http://[::1]/'], ignore_invalid_urls: true }) });
    expect(skipped.status).toBe(200);
  });

  it('answers a selected 429 with a message that agrees with its Retry-After and RateLimit fields', async () => {
    const answer = await fetch(`${origin}/v1/web/jobs`, { headers: { ...KEY, Prefer: 'code=429' } });
    expect(answer.status).toBe(429);
    expect((await answer.json()).error.message).toBe('Rate limit reached: 120 requests per 60 seconds for this key. Retry in 12 seconds.');
    expect([answer.headers.get('retry-after'), answer.headers.get('ratelimit'), answer.headers.get('ratelimit-policy')]).toEqual(['12', '"per-key";r=0;t=12', '"per-key";q=120;w=60']);
  });

  it('answers a selected upstream_rate_limited 503 with a Retry-After its message agrees with', async () => {
    const answer = await fetch(`${origin}/v1/web/search?query=planner`, { headers: { ...KEY, Prefer: 'code=503, example=upstream_rate_limited' } });
    expect(answer.status).toBe(503);
    expect((await answer.json()).error).toMatchObject({ code: 'upstream_rate_limited', message: 'The upstream of web/search throttles this service (it answered 429); retry in 30 seconds. No credits were used.' });
    expect(answer.headers.get('retry-after')).toBe('30');
  });

  // Before: "Response for contentType: application/json and exampleKey: nope does not exist.." (two periods, no names).
  it('refuses an example name the operation does not have by listing the names it has, with one period', async () => {
    const answer = await fetch(`${origin}/v1/web/scrape?url=https://example.com`, { headers: { ...KEY, Prefer: 'example=nope' } });
    expect(answer.status).toBe(422);
    expect((await answer.json()).error.message).toBe(
      'Invalid parameters: Prefer example=nope cannot be met: scrapeWebPage has no example named "nope" for status 200; its examples are article, links_and_html (for the examples of another status, send code=<status> with example).',
    );
    const ofAnotherStatus = await fetch(`${origin}/v1/web/scrape?url=https://example.com&__example=capability_unavailable`, { headers: KEY });
    expect((await ofAnotherStatus.json()).error.message).toBe(
      'Invalid parameters: Prefer example=capability_unavailable cannot be met: scrapeWebPage has no example named "capability_unavailable" for status 200; its examples are article, links_and_html; "capability_unavailable" is an example of status 503: send code=503 with it.',
    );
    const withCode = await fetch(`${origin}/v1/web/scrape?url=https://example.com`, { headers: { ...KEY, Prefer: 'code=503, example=nope' } });
    expect([withCode.status, (await withCode.json()).error.message]).toEqual([422, expect.stringContaining('for status 503; its examples are provider_unavailable, upstream_rate_limited, capability_unavailable, service_unavailable')]);
  });

  // Before: "Requested status code 418 is not defined in the document.." (two periods, no statuses).
  it('refuses a status the operation does not declare by listing the statuses it declares, with one period', async () => {
    const answer = await fetch(`${origin}/v1/web/jobs`, { headers: { ...KEY, Prefer: 'code=418' } });
    expect(answer.status).toBe(422);
    expect((await answer.json()).error.message).toBe(
      'Invalid parameters: Prefer code=418 cannot be met: listJobs declares the statuses 200, 400, 401, 402, 403, 404, 409, 422, 429, 500, 502, 503, 504.',
    );
  });

  it('refuses what Prism lets through and the server refuses: empty values, a body labelled application/*+json, a cross-parameter rule', async () => {
    const emptyKey = await fetch(`${origin}/v1/web/jobs`, { headers: { ...KEY, 'Idempotency-Key': '' } });
    expect([emptyKey.status, (await emptyKey.json()).error.message]).toEqual([422, expect.stringContaining('headers.idempotency-key must NOT have fewer than 1 characters')]);
    const emptyCursor = await fetch(`${origin}/v1/web/jobs?cursor=`, { headers: KEY });
    expect([emptyCursor.status, (await emptyCursor.json()).error.message]).toEqual([422, 'Invalid parameters: query.cursor must NOT have fewer than 1 characters.']);
    const emptyUrl = await fetch(`${origin}/v1/web/scrape?url=`, { headers: KEY });
    expect((await emptyUrl.json()).error.message).not.toContain('query.url is required');
    const vendorJson = await fetch(`${origin}/v1/web/crawl`, { method: 'POST', headers: { ...KEY, 'content-type': 'application/vnd.api+json' }, body: '{"url":"https://example.com"}' });
    expect([vendorJson.status, (await vendorJson.json()).error]).toEqual([422, expect.objectContaining({ code: 'unsupported_media_type', message: 'The request body must be application/json, not application/vnd.api+json.' })]);
    const extract = await fetch(`${origin}/v1/web/extract?url=https://example.com`, { headers: KEY });
    expect([extract.status, (await extract.json()).error.message]).toEqual([422, 'Invalid parameters: give exactly one of query.schema and query.prompt (neither was given).']);
  });

  it('keeps dynamic arrays to a handful of items, even where the contract allows thousands', async () => {
    const answer = await fetch(`${origin}/v1/web/map?url=https://example.com`, { headers: { ...KEY, Prefer: 'dynamic=true, seed=7' } });
    const body = await answer.json();
    expect(answer.status).toBe(200);
    expect(body.data.links.length).toBeLessThanOrEqual(5);
  });

  it('refuses a body over 1 MiB with body_too_large', async () => {
    const body = JSON.stringify({ url: 'https://example.com', goal: 'x'.repeat(1024 * 1024) });
    const answer = await fetch(`${origin}/v1/web/crawl`, { method: 'POST', headers: { ...KEY, 'content-type': 'application/json' }, body });
    expect(answer.status).toBe(422);
    expect((await answer.json()).error.code).toBe('body_too_large');
  });

  it('serves the generated client, typed answers included', async () => {
    const client = createQueryClient({ baseUrl: `${origin}/v1`, apiKey: 'wsdq_mock_test' });
    const { data, error, response } = await client.GET('/web/scrape', { params: { query: { url: 'https://example.com/blog/launch' } } });
    expect(response.status).toBe(200);
    expect(error).toBeUndefined();
    expect(data?.data.metadata?.status_code).toBe(200);

    const failed = await client.POST('/web/crawl', { body: { url: 'https://example.com', limit: 0 } });
    expect(failed.response.status).toBe(422);
    expect(failed.error?.error.message).toContain('body.limit');
  });
});

describe('the mock process', () => {
  function startMock(env: Record<string, string>) {
    const child = spawn(process.execPath, ['mock/main.ts'], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk));
    return { child, output: () => output };
  }

  it('stops cleanly on SIGINT', async () => {
    const mock = startMock({ PORT: '0' });
    await expect.poll(() => mock.output(), { timeout: 15_000 }).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+\/v1/);
    const exited = once(mock.child, 'exit');
    mock.child.kill('SIGINT');
    expect((await exited)[0]).toBe(0);
    expect(mock.output()).toContain('SIGINT received: closing the mock');
  });

  it('refuses a PORT that is not a port, naming the variable', async () => {
    const mock = startMock({ PORT: 'eighty' });
    const [code] = await once(mock.child, 'exit');
    expect(code).toBe(2);
    expect(mock.output()).toContain('PORT must be an integer from 0 to 65535, got "eighty"');
  });
});
