/** Live scrapes through the whole server: a public-only policy refuses loopback with 422 and no credits. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test-support/test-server.ts';
import { testWebProvider } from '../../test-support/web-provider.ts';

describe('live scrape through the server', () => {
  let server: TestServer;
  beforeAll(async () => (server = await startTestServer({ providers: { web: testWebProvider({ policy: { allowPrivateNetwork: false } }) }, routes: { scrapeWebPage: 'web' } })));
  afterAll(() => server.close());

  it.each(['http://127.0.0.1:9/', 'http://2130706433/', 'http://[::1]/', 'http://169.254.169.254/latest/meta-data/'])('refuses %s with 422 url_not_allowed and no credits', async (url) => {
    const { secret, id } = await server.key({ credits: 5, sandbox: false });
    const answer = await server.call(`/web/scrape?url=${encodeURIComponent(url)}`, { key: secret });
    expect([answer.status, answer.body.error.code, answer.body.credits_used]).toEqual([422, 'url_not_allowed', 0]);
    expect(await server.stores.ledger.balance(id)).toBe(5);
  });
});
