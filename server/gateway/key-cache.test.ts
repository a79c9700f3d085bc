/**
 * Regression for the key cache (store/api-keys.ts, KEY_CACHE_MS): a cached key never makes a
 * call report a stale balance. The balance comes from the call's charge, or on an error from the
 * database, even when the credits changed through another instance a moment before.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storesOver } from '../store/index.ts';
import { startTestServer, type TestServer } from '../test-support/test-server.ts';

describe('the balance a call reports while its key is cached', () => {
  let server: TestServer;
  beforeAll(async () => (server = await startTestServer()));
  afterAll(() => server.close());

  it('is exact right after a top-up through another instance, on a success and on an error before the charge', async () => {
    const { secret, id } = await server.key({ credits: 100 });
    const first = await server.call('/socialnet/events?url=https://social.example/g', { key: secret });
    expect(first.status).toBe(200);
    const afterFirst = first.body.credits_remaining as number;

    await storesOver(server.stores.database).ledger.topUp(id, 50);
    const second = await server.call('/socialnet/events?url=https://social.example/g', { key: secret });
    expect(second.status).toBe(200);
    expect(second.body.credits_remaining).toBe(afterFirst + 50 - (second.body.credits_used as number));

    await storesOver(server.stores.database).ledger.topUp(id, 7);
    const refused = await server.call('/socialnet/events', { key: secret });
    expect(refused.status).toBe(422);
    expect(refused.body.credits_remaining).toBe((second.body.credits_remaining as number) + 7);
    expect(refused.body.credits_remaining).toBe(await server.stores.ledger.balance(id));
  });
});
