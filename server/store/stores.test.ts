/**
 * The stores' rules, on SQLite and on PostgreSQL alike, with two sets of stores on one database
 * standing for two instances: credits never spent twice nor below zero, a refund and a page charge
 * written at most once, one Idempotency-Key claim, one rate-limit window per key, one response cache.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { STORE_BACKENDS } from '../test-support/store-backends.ts';
import { IDEMPOTENCY_TTL_MS, IN_FLIGHT_RECLAIM_MS } from './idempotency-records.ts';
import { openStores, storesOver, type Stores } from './index.ts';
import { PostgresDatabase } from './postgres/postgres-database.ts';
import { newPostgresDatabase } from '../test-support/postgres-database.ts';
import { POSTGRES_MIGRATIONS } from './postgres/migrations.ts';

describe.each(STORE_BACKENDS)('stores on $name, two instances on one database', ({ newLocation }) => {
  let first: Stores;
  let second: Stores;
  beforeEach(async () => {
    const location = await newLocation();
    first = await openStores(location);
    // SQLite serves one process: a second instance is a second process (server/cli/keys.test.ts has
    // those), as two connections in one thread would wait on each other's lock. Here the second set
    // of stores shares the first's connection (its own in-memory cache).
    second = first.database.dialect === 'sqlite' ? storesOver(first.database) : await openStores(location);
  });
  afterEach(async () => {
    await Promise.all([first.database.close(), second.database.close()]);
  });

  it('50 one-credit charges at once over both against a balance of 20: exactly 20 succeed, the balance is 0 and the ledger sums to it', async () => {
    const { key } = await first.keys.create({ credits: 20 });
    const results = await Promise.all(Array.from({ length: 50 }, (_, index) => (index % 2 ? first : second).ledger.charge(key.id, 1, { requestId: `req_${index}` })));
    expect(results.filter((result) => result.ok)).toHaveLength(20);
    expect(await second.ledger.balance(key.id)).toBe(0);
    const entries = await first.ledger.entries(key.id);
    expect(entries.reduce((sum, entry) => sum + entry.amount, 0)).toBe(0);
    expect(entries.filter((entry) => entry.kind === 'charge')).toHaveLength(20);
  });

  it('a job is refunded once: a second refund naming it fails and changes nothing', async () => {
    const { key } = await first.keys.create({ credits: 10 });
    await first.ledger.charge(key.id, 3, { jobId: 'job_1' });
    expect(await first.ledger.refund(key.id, 3, { jobId: 'job_1' })).toBe(10);
    await expect(second.ledger.refund(key.id, 3, { jobId: 'job_1' })).rejects.toThrow(/ledger_one_refund_per_job|UNIQUE/);
    expect(await second.ledger.balance(key.id)).toBe(10);
  });

  it('a page of a job is charged once: a second charge for the same page fails and draws nothing', async () => {
    const { key } = await first.keys.create({ credits: 10 });
    expect(await first.ledger.charge(key.id, 1, { jobId: 'job_1', pageSeq: 1 })).toEqual({ ok: true, balance: 9 });
    await expect(second.ledger.charge(key.id, 1, { jobId: 'job_1', pageSeq: 1 })).rejects.toThrow(/ledger_one_charge_per_page|UNIQUE/);
    expect(await second.ledger.charge(key.id, 1, { jobId: 'job_1', pageSeq: 2 })).toEqual({ ok: true, balance: 8 });
    expect(await first.ledger.balance(key.id)).toBe(8);
  });

  it('keeps the ledger append-only', async () => {
    const { key } = await first.keys.create({ credits: 5 });
    await expect(first.database.run('UPDATE ledger SET amount = 999 WHERE key_id = ?', [key.id])).rejects.toThrow(/append-only/);
    await expect(first.database.run('DELETE FROM ledger WHERE key_id = ?', [key.id])).rejects.toThrow(/append-only/);
  });

  it('one Idempotency-Key claimed from both at once: exactly one claim, the others see it in flight', async () => {
    const { key } = await first.keys.create({ credits: 1 });
    const claims = await Promise.all(Array.from({ length: 10 }, (_, index) => (index % 2 ? first : second).idempotency.claim(key.id, 'idem-1', 'fingerprint', 1_000)));
    expect(claims.filter((claim) => claim.kind === 'claimed')).toHaveLength(1);
    expect(claims.filter((claim) => claim.kind === 'in_flight')).toHaveLength(9);
  });

  it(`a claim left in flight by a dead instance is reclaimed after ${IN_FLIGHT_RECLAIM_MS / 60_000} minutes, not before; a stored answer is kept 24 hours`, async () => {
    const { key } = await first.keys.create({ credits: 1 });
    expect(await first.idempotency.claim(key.id, 'abandoned', 'f', 0)).toEqual({ kind: 'claimed' });
    expect(await second.idempotency.claim(key.id, 'abandoned', 'f', IN_FLIGHT_RECLAIM_MS - 1)).toEqual({ kind: 'in_flight', sameRequest: true });
    expect(await second.idempotency.claim(key.id, 'abandoned', 'f', IN_FLIGHT_RECLAIM_MS)).toEqual({ kind: 'claimed' });

    const answer = { status: 200, headers: { 'X-Cache': 'BYPASS' }, body: '{}' };
    expect(await first.idempotency.claim(key.id, 'done', 'f', 0)).toEqual({ kind: 'claimed' });
    await first.idempotency.complete(key.id, 'done', answer);
    expect(await second.idempotency.claim(key.id, 'done', 'f', IN_FLIGHT_RECLAIM_MS * 2)).toEqual({ kind: 'done', sameRequest: true, answer });
    expect(await second.idempotency.claim(key.id, 'done', 'f', IDEMPOTENCY_TTL_MS)).toEqual({ kind: 'claimed' });
  });

  it('one rate-limit window per key across both: the counts of one window add up, a new window starts again at 1', async () => {
    const counts = await Promise.all(Array.from({ length: 10 }, (_, index) => (index % 2 ? first : second).rateLimits.count('key_1', 60_000)));
    expect([...counts].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(await first.rateLimits.count('key_1', 120_000)).toBe(1);
    expect(await second.rateLimits.count('key_1', 60_000)).toBe(2);
    expect(await second.rateLimits.count('key_2', 120_000)).toBe(1);
  });

  it('shares the response cache: what one stores, the other serves', async () => {
    await first.cache.put('live:searchWeb:[]', { results: [1] }, 5_000);
    expect(await second.cache.get('live:searchWeb:[]')).toEqual({ data: { results: [1] }, json: '{"results":[1]}', storedAtMs: 5_000 });
  });

  it('has every migration applied', async () => {
    const { applied, expected } = await second.database.migrationsApplied();
    expect(applied).toBe(expected);
  });
});

describe('PostgreSQL migrations', () => {
  it('several instances starting at once on an empty database migrate it once, without an error', async () => {
    const location = await newPostgresDatabase();
    const empty = await PostgresDatabase.open(location);
    await empty.run('DROP SCHEMA public CASCADE');
    await empty.run('CREATE SCHEMA public');
    await empty.close();

    const instances = await Promise.all(Array.from({ length: 5 }, () => PostgresDatabase.open(location)));
    const versions = await instances[0]!.all<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
    expect(versions.map((row) => row.version)).toEqual(POSTGRES_MIGRATIONS.map((_, index) => index + 1));
    expect(await instances[1]!.get('SELECT COUNT(*) AS tables FROM pg_tables WHERE schemaname = ? AND tablename = ?', ['public', 'ledger'])).toEqual({ tables: 1 });
    await Promise.all(instances.map((instance) => instance.close()));
  });
});
