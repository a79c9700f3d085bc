/**
 * An upstream failure through the whole service: the envelope, `Retry-After` carried from the
 * upstream's reset, no credit used, nothing cached (the next call asks the upstream again).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import web from '../providers/searxng/fixtures/web.json' with { type: 'json' };
import { sandboxProvider } from '../providers/sandbox/index.ts';
import { ProviderError, type DataProvider } from '../providers/types.ts';
import { json, startFakeUpstream, type FakeUpstream } from '../test-support/fake-upstream.ts';
import { startTestServer, type TestServer } from '../test-support/test-server.ts';

/** Throttled once with a Retry-After, then answers like the sandbox: for a cacheable operation. */
function throttledOnce(): DataProvider & { calls: number } {
  const provider = {
    name: 'throttled',
    calls: 0,
    async fetch(call: Parameters<DataProvider['fetch']>[0]) {
      provider.calls += 1;
      if (provider.calls === 1) throw new ProviderError('upstream_rate_limited', 'Fake Social throttles this service (it answered 429); retry in 30 seconds. No credits were used.', { 'Retry-After': '30' });
      return sandboxProvider.fetch(call);
    },
  };
  return provider;
}

describe('an upstream failure answered by the service', () => {
  let fake: FakeUpstream;
  let server: TestServer;
  const throttled = throttledOnce();
  beforeAll(async () => {
    fake = await startFakeUpstream();
    server = await startTestServer({ upstreams: { searxng: { url: fake.baseUrl } }, providers: { throttled }, routes: { scrapeWebPage: 'throttled' } });
  });
  afterAll(async () => {
    await server.close();
    await fake.close();
  });

  it("a SearXNG 429 with Retry-After answers 503 upstream_rate_limited with that Retry-After, no credits used; the next call asks SearXNG again", async () => {
    const { secret, id } = await server.key({ credits: 10, sandbox: false });
    fake.answer = json(429, { error: 'Too Many Requests' }, { 'Retry-After': '45' });
    const throttledAnswer = await server.call('/web/search?query=vector+databases', { key: secret });

    expect(fake.requests).toHaveLength(1);
    expect(throttledAnswer.status).toBe(503);
    expect(throttledAnswer.body.error).toMatchObject({ code: 'upstream_rate_limited', type: 'unavailable_error', status: 503, message: 'SearXNG throttles this service (it answered 429); retry in 45 seconds. No credits were used.' });
    expect([throttledAnswer.headers.get('retry-after'), throttledAnswer.headers.get('x-credits-used')]).toEqual(['45', '0']);
    expect(await server.stores.ledger.balance(id)).toBe(10);

    fake.answer = json(200, web);
    const answered = await server.call('/web/search?query=vector+databases&limit=3', { key: secret });
    expect(fake.requests).toHaveLength(2);
    expect(answered.status).toBe(200);
    expect(answered.body.data.results).toHaveLength(3);
    expect(await server.stores.ledger.balance(id)).toBe(8);
  });

  it('a throttled cacheable operation is not cached: the retry reaches the provider and succeeds', async () => {
    const { secret, id } = await server.key({ credits: 10, sandbox: false });
    const first = await server.call('/web/scrape?url=https://example.com/launch&max_age=600000', { key: secret });
    expect(first.status).toBe(503);
    expect([first.body.error.code, first.headers.get('retry-after'), first.headers.get('x-cache')]).toEqual(['upstream_rate_limited', '30', 'BYPASS']);

    const second = await server.call('/web/scrape?url=https://example.com/launch&max_age=600000', { key: secret });
    expect(throttled.calls).toBe(2);
    expect([second.status, second.headers.get('x-cache')]).toEqual([200, 'MISS']);
    const third = await server.call('/web/scrape?url=https://example.com/launch&max_age=600000', { key: secret });
    expect([third.status, third.headers.get('x-cache'), throttled.calls]).toEqual([200, 'HIT', 2]);
    expect((await server.stores.ledger.entries(id)).filter((entry) => entry.kind === 'charge')).toHaveLength(3);
    expect((await server.stores.ledger.entries(id)).filter((entry) => entry.kind === 'refund')).toHaveLength(1);
  });
});
