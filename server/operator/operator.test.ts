/** The operator's endpoints on a real server: /healthz, /readyz and /metrics outside /v1, with no key. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { operations } from '../../generated/operations.ts';
import { JobRunner } from '../jobs/job-runner.ts';
import { MonitorScheduler } from '../monitors/scheduler.ts';
import type { SqliteDatabase } from '../store/sqlite/sqlite-database.ts';
import { startTestServer, type TestServer } from '../test-support/test-server.ts';

const cost = (operationId: string) => operations.find((row) => row.operationId === operationId)!;

/** The value of one sample of the exposition, or undefined when it is absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const wanted = Object.entries(labels).map(([label, value]) => `${label}="${value}"`);
  for (const line of text.split('\n')) {
    const match = /^([a-z_]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const present = (match[2] ?? '').split(',').filter(Boolean);
    if (wanted.length === present.length && wanted.every((pair) => present.includes(pair))) return Number(match[3]);
  }
  return undefined;
}

describe('the operator endpoints', () => {
  let server: TestServer;
  let origin: string;
  beforeEach(async () => {
    server = await startTestServer();
    origin = new URL(server.baseUrl).origin;
  });
  afterEach(() => server.close());

  it('GET /healthz answers 200 {"status":"ok"} with no key', async () => {
    const answer = await fetch(`${origin}/healthz`);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ status: 'ok' });
    expect(answer.headers.get('cache-control')).toBe('no-store');
  });

  it('GET /readyz answers 200 when the database answers and every migration is applied', async () => {
    const answer = await fetch(`${origin}/readyz`);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ status: 'ready' });
  });

  it('GET /readyz answers 503 while shutting down (after SIGTERM, while in-flight requests finish)', async () => {
    server.readiness.shuttingDown = true;
    const answer = await fetch(`${origin}/readyz`);
    expect(answer.status).toBe(503);
    expect(await answer.json()).toEqual({ status: 'not_ready', reason: 'shutting down' });
    expect((await fetch(`${origin}/healthz`)).status).toBe(200);
  });

  it('GET /readyz answers 503 naming the pending migrations when one is not applied', async () => {
    const { version } = (await server.stores.database.get<{ version: number }>('SELECT MAX(version) AS version FROM schema_migrations'))!;
    await server.stores.database.run('DELETE FROM schema_migrations WHERE version = ?', [version]);
    const answer = await fetch(`${origin}/readyz`);
    expect(answer.status).toBe(503);
    expect(await answer.json()).toEqual({ status: 'not_ready', reason: `database migrations pending: ${version - 1} of ${version} applied` });
  });

  it('GET /readyz answers 503 when the database does not answer', async () => {
    const { connection } = server.stores.database as SqliteDatabase;
    connection.close();
    const answer = await fetch(`${origin}/readyz`);
    expect(answer.status).toBe(503);
    expect(await answer.json()).toMatchObject({ status: 'not_ready', reason: expect.stringMatching(/^the database does not answer: /) });
    connection.open();
  });

  it('GET /metrics counts requests by operation and status, latency, credits charged and refunded, upstream errors and jobs by status', async () => {
    const { secret, id } = await server.key();
    const scrape = cost('scrapeWebPage').creditCost;
    expect((await server.call('/web/scrape?url=https://example.com/a', { key: secret })).status).toBe(200);
    expect((await server.call('/web/scrape?url=https://example.com/b', { key: secret })).status).toBe(200);
    expect((await server.call('/web/scrape?url=https://fail-502.sandbox.test/', { key: secret })).status).toBe(502);
    expect((await server.call('/web/nothing-here', { key: secret })).status).toBe(404);
    expect((await server.call('/web/scrape?url=https://example.com/a')).status).toBe(401);
    const submitted = await server.call('/web/batch-scrape', { method: 'POST', key: secret, body: { urls: ['https://example.com/1', 'https://fail-500.sandbox.test/2'] } });
    expect(submitted.status).toBe(200);

    let text = await (await fetch(`${origin}/metrics`)).text();
    expect(sample(text, 'wsdq_http_requests_total', { operation: 'scrapeWebPage', status: '200' })).toBe(2);
    expect(sample(text, 'wsdq_http_requests_total', { operation: 'scrapeWebPage', status: '502' })).toBe(1);
    expect(sample(text, 'wsdq_http_requests_total', { operation: 'scrapeWebPage', status: '401' })).toBe(1);
    expect(sample(text, 'wsdq_http_requests_total', { operation: 'none', status: '404' })).toBe(1);
    expect(sample(text, 'wsdq_http_requests_total', { operation: 'batchScrapeWebPages', status: '200' })).toBe(1);
    expect(sample(text, 'wsdq_http_request_duration_seconds_count', { operation: 'scrapeWebPage' })).toBe(4);
    expect(sample(text, 'wsdq_http_request_duration_seconds_bucket', { operation: 'scrapeWebPage', le: '+Inf' })).toBe(4);
    expect(sample(text, 'wsdq_credits_charged_total', { operation: 'scrapeWebPage' })).toBe(3 * scrape);
    expect(sample(text, 'wsdq_credits_refunded_total', { operation: 'scrapeWebPage' })).toBe(scrape);
    expect(sample(text, 'wsdq_upstream_errors_total', { provider: 'sandbox', code: 'upstream_failed' })).toBe(1);
    expect(sample(text, 'wsdq_jobs', { status: 'queued' })).toBe(1);

    for (let tick = 0; tick < 4; tick++) await server.runner.tick();
    text = await (await fetch(`${origin}/metrics`)).text();
    expect(sample(text, 'wsdq_jobs', { status: 'queued' })).toBeUndefined();
    expect(sample(text, 'wsdq_jobs', { status: 'completed' })).toBe(1);
    expect(sample(text, 'wsdq_upstream_errors_total', { provider: 'sandbox', code: 'upstream_failed' })).toBe(2);
    expect(sample(text, 'wsdq_credits_charged_total', { operation: 'batchScrapeWebPages' })).toBe(cost('batchScrapeWebPages').creditCost + cost('batchScrapeWebPages').creditCostPerPage);
    expect(text).not.toContain(id);
    expect(text).not.toContain(secret);
  });

  it('GET /metrics counts a monitor check the upstream failed as an upstream error', async () => {
    const { secret } = await server.key();
    expect((await server.call('/web/monitors', { method: 'POST', key: secret, body: { url: 'https://fail-503.sandbox.test/pricing' } })).status).toBe(200);
    await new MonitorScheduler(server.stores, server.clock, server.providers, server.metrics).tick();
    const text = await (await fetch(`${origin}/metrics`)).text();
    expect(sample(text, 'wsdq_upstream_errors_total', { provider: 'sandbox', code: 'upstream_failed' })).toBe(1);
  });

  it('GET /metrics answers the Prometheus text format', async () => {
    const answer = await fetch(`${origin}/metrics`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = await answer.text();
    expect(text).toContain('# TYPE wsdq_http_requests_total counter');
    expect(text).toContain('# TYPE wsdq_http_request_duration_seconds histogram');
    expect(text).toContain('# TYPE wsdq_jobs gauge');
  });

  it.each(['/healthz', '/readyz', '/metrics'])('%s is not counted as a request of the API', async (path) => {
    await fetch(`${origin}${path}`);
    const text = await (await fetch(`${origin}/metrics`)).text();
    expect(text).not.toMatch(/^wsdq_http_requests_total\{/m);
  });
});

describe('the metrics of live jobs', () => {
  it('a page the site fails counts as an upstream error of the web provider', async () => {
    const site = createServer((request, response) => {
      response.writeHead(request.url === '/broken' ? 500 : 200, { 'content-type': 'text/html' });
      response.end('<html><body><h1>A page</h1><p>Some text for the page.</p></body></html>');
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const siteOrigin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    const server = await startTestServer({ allowPrivateNetwork: true, web: {} });
    try {
      const { secret, id } = await server.key({ credits: 100, sandbox: false });
      const submitted = await server.call('/web/batch-scrape', { method: 'POST', key: secret, body: { urls: [`${siteOrigin}/fine`, `${siteOrigin}/broken`] } });
      expect(submitted.status).toBe(200);
      await new JobRunner(server.stores, server.clock, server.providers, server.metrics).work(id, submitted.body.data.job.id);
      const text = await (await fetch(`${new URL(server.baseUrl).origin}/metrics`)).text();
      expect(sample(text, 'wsdq_upstream_errors_total', { provider: 'web', code: 'upstream_failed' })).toBe(1);
      expect(sample(text, 'wsdq_credits_charged_total', { operation: 'batchScrapeWebPages' })).toBe(cost('batchScrapeWebPages').creditCost + cost('batchScrapeWebPages').creditCostPerPage);
    } finally {
      await server.close();
      await new Promise<void>((resolve) => site.close(() => resolve()));
    }
  });
});
