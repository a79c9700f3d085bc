/**
 * Keys found by their secrets are reused for KEY_CACHE_MS: a revocation made through another store
 * on the same database (another instance, the key commands) is honoured within that bound, one made
 * through this store at once. Two ApiKeyStores on one database stand for two instances.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { STORE_BACKENDS } from '../test-support/store-backends.ts';
import { ApiKeyStore, KEY_CACHE_MS } from './api-keys.ts';
import { openStores, type Stores } from './index.ts';

describe.each(STORE_BACKENDS)('the key cache on $name', ({ newLocation }) => {
  let stores: Stores;
  let nowMs: number;
  /** This instance: its key cache on a clock the test moves. */
  let here: ApiKeyStore;
  /** Another instance on the same database. */
  let there: ApiKeyStore;
  beforeEach(async () => {
    stores = await openStores(await newLocation());
    nowMs = 1_000_000;
    here = new ApiKeyStore(stores.database, { now: () => nowMs });
    there = new ApiKeyStore(stores.database, { now: () => nowMs });
  });
  afterEach(async () => {
    await stores.database.close();
  });

  it(`a key revoked by another instance is still served for less than KEY_CACHE_MS (${KEY_CACHE_MS} ms), and refused from then on`, async () => {
    const { key, secret } = await there.create({ credits: 5 });
    expect((await here.findBySecret(secret))?.revokedAt).toBeNull();
    await there.revoke(key.id);
    nowMs += KEY_CACHE_MS - 1;
    expect((await here.findBySecret(secret))?.revokedAt).toBeNull();
    nowMs += 1;
    expect((await here.findBySecret(secret))?.revokedAt).toEqual(expect.any(String));
  });

  it('a key revoked through this store is refused at once', async () => {
    const { key, secret } = await here.create({ credits: 5 });
    expect((await here.findBySecret(secret))?.revokedAt).toBeNull();
    await here.revoke(key.id);
    expect((await here.findBySecret(secret))?.revokedAt).toEqual(expect.any(String));
  });

  it('a key read while this store revokes it is not kept (the read may predate the revocation)', async () => {
    const { key, secret } = await here.create({ credits: 5 });
    const [found] = await Promise.all([here.findBySecret(secret), here.revoke(key.id)]);
    expect(found).toBeDefined();
    expect((await here.findBySecret(secret))?.revokedAt).toEqual(expect.any(String));
  });

  it('an unknown secret is read again on every call (never kept), so a key created meanwhile is found', async () => {
    const unknown = 'wsdq_live_00000000000000000000000000000000';
    expect(await here.findBySecret(unknown)).toBeUndefined();
    const { secret } = await there.create({ credits: 1 });
    expect(await here.findBySecret(secret)).toBeDefined();
    expect(await here.findBySecret(unknown)).toBeUndefined();
  });

  it('with cacheMs 0 every call reads the key', async () => {
    const uncached = new ApiKeyStore(stores.database, { cacheMs: 0, now: () => nowMs });
    const { key, secret } = await there.create({ credits: 5 });
    expect((await uncached.findBySecret(secret))?.revokedAt).toBeNull();
    await there.revoke(key.id);
    expect((await uncached.findBySecret(secret))?.revokedAt).toEqual(expect.any(String));
  });
});
