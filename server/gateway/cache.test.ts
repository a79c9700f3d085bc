/** The response cache: socialnet/events for 15 minutes (MISS → HIT → BYPASS), map likewise, scrape by max_age. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countingProvider } from '../test-support/providers.ts';
import { startTestServer, type TestServer } from '../test-support/test-server.ts';

describe('cache', () => {
  let server: TestServer;
  const counting = countingProvider();
  beforeAll(async () => (server = await startTestServer({ providers: { counting }, routes: { listSocialEvents: 'counting', scrapeWebPage: 'counting' } })));
  afterAll(() => server.close());

  it('serves socialnet/events MISS, then HIT within 15 minutes (charged), BYPASS on no-cache (refreshing), MISS after expiry', async () => {
    const { secret, id } = await server.key({ credits: 100, sandbox: false });
    const path = '/socialnet/events?url=https://social.example/groups/berlin-hikers';
    const steps: { headers: Record<string, string>; advanceMs: number; xCache: string; cached: boolean; providerCalls: number }[] = [
      { headers: {}, advanceMs: 0, xCache: 'MISS', cached: false, providerCalls: 1 },
      { headers: {}, advanceMs: 60_000, xCache: 'HIT', cached: true, providerCalls: 1 },
      { headers: { 'Cache-Control': 'no-cache' }, advanceMs: 0, xCache: 'BYPASS', cached: false, providerCalls: 2 },
      { headers: {}, advanceMs: 14 * 60_000, xCache: 'HIT', cached: true, providerCalls: 2 },
      { headers: {}, advanceMs: 60_001, xCache: 'MISS', cached: false, providerCalls: 3 },
    ];
    let first: unknown;
    for (const [index, step] of steps.entries()) {
      server.clock.advance(step.advanceMs);
      const answer = await server.call(path, { key: secret, headers: step.headers });
      expect([answer.status, answer.headers.get('x-cache'), answer.body.cached, counting.calls], `step ${index}`).toEqual([200, step.xCache, step.cached, step.providerCalls]);
      first ??= answer.body.data;
      expect(answer.body.data).toEqual(first);
    }
    expect(await server.stores.ledger.balance(id)).toBe(100 - steps.length);
  });

  it('serves a scrape from the cache only when max_age allows it', async () => {
    const { secret } = await server.key({ credits: 100, sandbox: false });
    const path = '/web/scrape?url=https://example.com/cached-page';
    const before = counting.calls;
    const fresh = await server.call(path, { key: secret });
    const young = await server.call(`${path}&max_age=60000`, { key: secret });
    server.clock.advance(120_000);
    const tooOld = await server.call(`${path}&max_age=60000`, { key: secret });
    expect([fresh.headers.get('x-cache'), young.headers.get('x-cache'), tooOld.headers.get('x-cache')]).toEqual(['BYPASS', 'HIT', 'MISS']);
    expect(counting.calls - before).toBe(2);
  });

  it('keeps sandbox and live results apart', async () => {
    const path = '/socialnet/events?url=https://social.example/groups/apart';
    await server.call(path, { key: (await server.key({ sandbox: false })).secret });
    const sandbox = await server.call(path, { key: (await server.key({ sandbox: true })).secret });
    expect(sandbox.headers.get('x-cache')).toBe('MISS');
  });

  it('answers BYPASS for operations that never cache', async () => {
    const answer = await server.call('/web/search?query=no+cache', { key: (await server.key()).secret });
    expect([answer.headers.get('x-cache'), answer.body.cached]).toEqual(['BYPASS', false]);
  });
});
