import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SqliteDatabase } from './sqlite/sqlite-database.ts';
import { ResponseCache } from './response-cache.ts';

describe('the response cache kept in memory', () => {
  let database: SqliteDatabase;
  let cache: ResponseCache;
  beforeEach(() => {
    database = new SqliteDatabase(':memory:');
    cache = new ResponseCache(database);
  });
  afterEach(() => database.close());

  /** Data whose JSON is about `megabytes` MB. */
  const sized = (megabytes: number) => ({ text: 'x'.repeat(megabytes * 1024 * 1024) });

  it('holds at most 16 M characters of JSON, the least recently stored dropped first (regression: 1,000 large answers were all kept, twice)', async () => {
    for (let index = 0; index < 5; index++) await cache.put(`key-${index}`, sized(4), 1_000);
    expect(cache.memoryJsonCharacters).toBeLessThanOrEqual(16 * 1024 * 1024);
    expect(cache.memoryJsonCharacters).toBeGreaterThan(12 * 1024 * 1024);
    // A dropped entry is still served, from the database, whole.
    expect((await cache.get('key-0'))!.json).toBe(JSON.stringify(sized(4)));
  });

  it('keeps no entry larger than the whole budget in memory, and serves it from the database', async () => {
    await cache.put('small', { a: 1 }, 1_000);
    await cache.put('huge', sized(17), 1_000);
    expect(cache.memoryJsonCharacters).toBe(0);
    expect((await cache.get('huge'))!.data).toEqual(sized(17));
  });

  it('counts an entry stored again under its key once, and forgets what purgeExpired drops', async () => {
    await cache.put('key', { a: 1 }, 1_000);
    await cache.put('key', { a: 22 }, 2_000);
    expect(cache.memoryJsonCharacters).toBe('{"a":22}'.length);
    await cache.purgeExpired(2_000 + 8 * 24 * 60 * 60 * 1000);
    expect(cache.memoryJsonCharacters).toBe(0);
  });

  it('writes an entry stored several times in one turn once, with the last data, each put answered once that is committed', async () => {
    const run = vi.spyOn(database, 'run');
    await Promise.all([cache.put('key', { a: 1 }, 1_000), cache.put('other', { b: 1 }, 1_000), cache.put('key', { a: 2 }, 2_000), cache.put('key', { a: 3 }, 3_000)]);
    expect(run.mock.calls.filter(([sql]) => sql.startsWith('INSERT INTO response_cache')).map(([, params]) => params)).toEqual([
      ['key', '{"a":3}', 3_000],
      ['other', '{"b":1}', 1_000],
    ]);
    const stored = await database.all('SELECT cache_key, data, stored_at_ms FROM response_cache ORDER BY cache_key');
    expect(stored).toEqual([{ cache_key: 'key', data: '{"a":3}', stored_at_ms: 3_000 }, { cache_key: 'other', data: '{"b":1}', stored_at_ms: 1_000 }]);
  });
});
