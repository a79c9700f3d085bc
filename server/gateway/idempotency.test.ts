/** Idempotency-Key: replays are identical and uncharged; another request or a request in flight is 409. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatedProvider } from '../test-support/providers.ts';
import { startTestServer, type TestServer } from '../test-support/test-server.ts';

describe('Idempotency-Key', () => {
  let server: TestServer;
  const gate = gatedProvider();
  beforeAll(async () => (server = await startTestServer({ providers: { gated: gate.provider }, routes: { getPriceHistory: 'gated' } })));
  afterAll(() => server.close());

  it('replays the stored answer identically, with Idempotent-Replayed, and charges once', async () => {
    const { secret, id } = await server.key({ credits: 10 });
    const headers = { 'Idempotency-Key': 'crawl-2026-11-20' };
    const body = { url: 'https://example.com/docs/', limit: 3 };
    const first = await server.call('/web/crawl', { method: 'POST', key: secret, headers, body });
    const replay = await server.call('/web/crawl', { method: 'POST', key: secret, headers, body });

    expect([first.status, replay.status]).toEqual([200, 200]);
    expect(replay.body).toEqual(first.body);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(replay.headers.get('x-request-id')).toBe(first.body.request_id);
    expect(await server.stores.ledger.balance(id)).toBe(9);
    expect((await server.stores.jobs.list(id, 10, undefined)).jobs).toHaveLength(1);
  });

  it('answers 409 idempotency_key_reused for the same key with another request, charging nothing', async () => {
    const { secret, id } = await server.key({ credits: 10 });
    const headers = { 'Idempotency-Key': 'search-1' };
    await server.call('/web/search?query=first', { key: secret, headers });
    const other = await server.call('/web/search?query=second', { key: secret, headers });

    expect(other.status).toBe(409);
    expect(other.body.error.code).toBe('idempotency_key_reused');
    expect(await server.stores.ledger.balance(id)).toBe(8);
  });

  it('answers 409 idempotency_request_in_progress while the first request runs, then replays it', async () => {
    const { secret, id } = await server.key({ credits: 10, sandbox: false });
    const headers = { 'Idempotency-Key': 'history-aapl' };
    const first = server.call('/finance/history?symbol=AAPL', { key: secret, headers });
    await gate.started;
    const concurrent = await server.call('/finance/history?symbol=AAPL', { key: secret, headers });
    expect(concurrent.status).toBe(409);
    expect(concurrent.body.error.code).toBe('idempotency_request_in_progress');

    gate.release();
    expect((await first).status).toBe(200);
    const replay = await server.call('/finance/history?symbol=AAPL', { key: secret, headers });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(await server.stores.ledger.balance(id)).toBe(9);
  });

  it('keeps no error: the same key may retry after a failure', async () => {
    const { secret } = await server.key({ credits: 10 });
    const headers = { 'Idempotency-Key': 'retry-after-502' };
    const failed = await server.call('/web/scrape?url=https://fail-502.sandbox.test/', { key: secret, headers });
    const again = await server.call('/web/scrape?url=https://fail-502.sandbox.test/', { key: secret, headers });
    expect([failed.status, again.status]).toEqual([502, 502]);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
  });

  it('forgets keys after 24 hours', async () => {
    const { secret, id } = await server.key({ credits: 10 });
    const headers = { 'Idempotency-Key': 'daily' };
    await server.call('/web/search?query=day+one', { key: secret, headers });
    server.clock.advance(24 * 60 * 60 * 1000 + 1);
    const nextDay = await server.call('/web/search?query=day+two', { key: secret, headers });
    expect(nextDay.status).toBe(200);
    expect(await server.stores.ledger.balance(id)).toBe(6);
  });

  it('scopes keys to the API key: another key may use the same Idempotency-Key', async () => {
    const headers = { 'Idempotency-Key': 'shared-name' };
    const a = await server.call('/web/search?query=a', { key: (await server.key()).secret, headers });
    const b = await server.call('/web/search?query=b', { key: (await server.key()).secret, headers });
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(b.headers.get('idempotent-replayed')).toBeNull();
  });
});
