/**
 * What the mock adds to Prism, beyond the shared contract cases: its log line per request (CORS is
 * in lib/cors.test.ts, with the server's), Prism's query-string selection, cache headers that follow the request, error
 * envelopes that name the operation called, the generated client against it, and its process
 * (PORT, signals).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createQueryClient } from '../generated/client.ts';
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
