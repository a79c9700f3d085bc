/**
 * Keys found by their secret are reused for KEY_CACHE_MS (store/api-keys.ts), on SQLite and on
 * PostgreSQL, with two stores on one database standing for two instances: a revocation through
 * the other is seen within the bound, one through the same store at once; expiry is exact.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { STORE_BACKENDS } from '../test-support/store-backends.ts';
import { ApiKeyStore, KEY_CACHE_MS } from './api-keys.ts';
import { openStores, type Stores } from './index.ts';

describe.each(STORE_BACKENDS)('the key cache on $name', ({ newLocation }) => {
  let stores: Stores;
  let other: Stores;
  let nowMs: number;
  let keys: ApiKeyStore;
  beforeEach(async () => {
    const location = await newLocation();
    stores = await openStores(location);
    other = stores.database.dialect === 'sqlite' ? { ...stores, keys: new ApiKeyStore(stores.database) } : await openStores(location);
    nowMs = 1_000_000;
    keys = new ApiKeyStore(stores.database, { now: () => nowMs });
  });
  afterEach(async () => {
    await Promise.all([...new Set([stores.database, other.database])].map((database) => database.close()));
  });

  it(`a key revoked through another instance is refused within KEY_CACHE_MS (${KEY_CACHE_MS} ms), not read again before`, async () => {
    const { key, secret } = await other.keys.create({ credits: 5 });
    expect((await keys.findBySecret(secret))?.revokedAt).toBeNull();
    await other.keys.revoke(key.id);
    nowMs += KEY_CACHE_MS - 1;
    expect((await keys.findBySecret(secret))?.revokedAt).toBeNull();
    nowMs += 1;
    expect((await keys.findBySecret(secret))?.revokedAt).toEqual(expect.any(String));
  });

  it('a key revoked through this store is refused at once', async () => {
    const { key, secret } = await keys.create({ credits: 5 });
    expect((await keys.findBySecret(secret))?.revokedAt).toBeNull();
    await keys.revoke(key.id);
    expect((await keys.findBySecret(secret))?.revokedAt).toEqual(expect.any(String));
  });

  it('a look-up that a revocation through this store overlaps is not kept', async () => {
    const { key, secret } = await keys.create({ credits: 5 });
    const [during] = await Promise.all([keys.findBySecret(secret), keys.revoke(key.id)]);
    expect(during).toBeDefined();
    expect((await keys.findBySecret(secret))?.revokedAt).toEqual(expect.any(String));
  });

  it('an unknown secret is read every time: a key issued since is found at once', async () => {
    expect(await keys.findBySecret('wsdq_live_unknown')).toBeUndefined();
    const { secret } = await other.keys.create({ credits: 5 });
    expect(await keys.findBySecret(secret)).toBeDefined();
  });

  it('reads the key again once KEY_CACHE_MS has passed: a top-up through another instance shows then', async () => {
    const { key, secret } = await other.keys.create({ credits: 5 });
    expect((await keys.findBySecret(secret))?.balance).toBe(5);
    await other.ledger.topUp(key.id, 10);
    nowMs += KEY_CACHE_MS;
    expect((await keys.findBySecret(secret))?.balance).toBe(15);
  });

  it('with cacheMs 0, reads the key on every call', async () => {
    const uncached = new ApiKeyStore(stores.database, { cacheMs: 0 });
    const { key, secret } = await other.keys.create({ credits: 5 });
    expect((await uncached.findBySecret(secret))?.revokedAt).toBeNull();
    await other.keys.revoke(key.id);
    expect((await uncached.findBySecret(secret))?.revokedAt).toEqual(expect.any(String));
  });
});
