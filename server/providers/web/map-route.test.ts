/**
 * Live maps through the whole server: a site that cannot be read answers the upstream's error,
 * uncharged and never cached, where it used to answer 200 with no links, charged and cached.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test-support/test-server.ts';
import { closedOrigin } from '../../test-support/closed-origin.ts';

describe('live map through the server', () => {
  let server: TestServer;
  let site: ReturnType<typeof createServer>;
  let siteOrigin: string;
  let unreachableOrigin: string;

  beforeAll(async () => {
    unreachableOrigin = await closedOrigin();
    // /missing answers 404, /slow never answers, like robots.txt and the sitemaps: the site has nothing to map.
    site = createServer((request, response) => {
      if (request.url === '/slow') return;
      response.writeHead(404, { 'content-type': 'text/html' });
      response.end('<html><body>Not here</body></html>');
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    siteOrigin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    server = await startTestServer({ allowPrivateNetwork: true, web: { limits: { timeoutMs: 400 } } });
  });
  afterAll(async () => {
    await server.close();
    site.closeAllConnections();
    await new Promise<void>((resolve) => site.close(() => resolve()));
  });

  it.each([
    { host: 'a host with nothing listening', url: () => `${unreachableOrigin}/`, status: 502, code: 'upstream_failed' },
    { host: 'a site whose start page is 404, without a sitemap', url: () => `${siteOrigin}/missing`, status: 404, code: 'upstream_not_found' },
    { host: 'a host that does not answer in time', url: () => `${siteOrigin}/slow`, status: 504, code: 'upstream_timeout' },
  ])('a map of $host answers $status $code, uncharged, and a second call is not served the empty map from the cache', async ({ url, status, code }) => {
    const { secret, id } = await server.key({ credits: 5, sandbox: false });
    const path = `/web/map?url=${encodeURIComponent(url())}`;
    for (const attempt of ['first', 'second']) {
      const answer = await server.call(path, { key: secret });
      expect([answer.status, answer.body.error?.code, answer.body.credits_used, answer.body.credits_remaining], `${attempt} call`).toEqual([status, code, 0, 5]);
      expect([answer.headers.get('x-credits-used'), answer.headers.get('x-cache')], `${attempt} call`).toEqual(['0', 'BYPASS']);
    }
    expect(await server.stores.ledger.balance(id)).toBe(5);
    const entries = (await server.stores.ledger.entries(id)).filter((entry) => entry.kind !== 'top_up');
    expect(entries.map((entry) => entry.kind)).toEqual(['charge', 'refund', 'charge', 'refund']);
    expect(entries.reduce((sum, entry) => sum + entry.amount, 0)).toBe(0);
  });
});
