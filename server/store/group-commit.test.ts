/**
 * The group commit (store/group-commit.ts) on SQLite and PostgreSQL: the charges and rate-limit
 * counts of one event-loop turn are written in one transaction, each answered only once it has
 * committed, a 402 stays exact, a write that fails fails alone, and a write inside an open
 * transaction joins it.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { STORE_BACKENDS } from '../test-support/store-backends.ts';
import { GroupCommit } from './group-commit.ts';
import { openStores, type Stores } from './index.ts';

describe.each(STORE_BACKENDS)('the group commit on $name', ({ newLocation }) => {
  let location: string;
  let stores: Stores;
  /** Another connection to the same database: it sees only what has committed. */
  let outside: Stores;
  beforeEach(async () => {
    location = await newLocation();
    stores = await openStores(location);
    outside = await openStores(location);
  });
  afterEach(async () => {
    await Promise.all([stores.database.close(), outside.database.close()]);
  });

  it('a 402 stays exact when 20 charges race for the last 5 credits: exactly 5 succeed, in one transaction, one ledger row each, no negative balance', async () => {
    const { key } = await stores.keys.create({ credits: 5 });
    const transaction = vi.spyOn(stores.database, 'transaction');
    const results = await Promise.all(Array.from({ length: 20 }, (_, index) => stores.ledger.charge(key.id, 1, { requestId: `req_${index}` })));
    expect(transaction).toHaveBeenCalledTimes(1);
    expect(results.filter((result) => result.ok).map((result) => result.balance)).toEqual([4, 3, 2, 1, 0]);
    expect(results.filter((result) => !result.ok)).toEqual(Array.from({ length: 15 }, () => ({ ok: false, balance: 0 })));
    const entries = await outside.ledger.entries(key.id);
    expect(entries.filter((entry) => entry.kind === 'charge').map((entry) => entry.requestId)).toEqual(['req_0', 'req_1', 'req_2', 'req_3', 'req_4']);
    expect(entries.every((entry) => entry.balanceAfter >= 0)).toBe(true);
    expect(await outside.ledger.balance(key.id)).toBe(0);
  });

  it('charges of different sizes racing: each succeeds only while the balance covers it, in order', async () => {
    const { key } = await stores.keys.create({ credits: 10 });
    const amounts = [4, 4, 4, 1, 1, 5];
    const results = await Promise.all(amounts.map((amount, index) => stores.ledger.charge(key.id, amount, { requestId: `req_${index}` })));
    expect(results).toEqual([{ ok: true, balance: 6 }, { ok: true, balance: 2 }, { ok: false, balance: 2 }, { ok: true, balance: 1 }, { ok: true, balance: 0 }, { ok: false, balance: 0 }]);
  });

  it('a hot key\'s charges of one turn that its balance covers are drawn by one update and recorded by one insert, each answered the balance after it, its ledger row in order', async () => {
    const { key } = await stores.keys.create({ credits: 20 });
    const run = vi.spyOn(stores.database, 'run');
    const get = vi.spyOn(stores.database, 'get');
    const amounts = [1, 3, 2, 5, 1];
    const results = await Promise.all(amounts.map((amount, index) => stores.ledger.charge(key.id, amount, { requestId: `req_${index}`, operationId: 'scrapeWebPage' })));
    expect(results).toEqual([19, 16, 14, 9, 8].map((balance) => ({ ok: true, balance })));
    expect(get.mock.calls.filter(([sql]) => sql.startsWith('UPDATE api_keys'))).toHaveLength(1);
    expect(run.mock.calls.filter(([sql]) => sql.startsWith('INSERT INTO ledger'))).toHaveLength(1);
    const charges = (await outside.ledger.entries(key.id)).filter((entry) => entry.kind === 'charge');
    expect(charges.map(({ requestId, amount, balanceAfter, operationId }) => ({ requestId, amount, balanceAfter, operationId }))).toEqual(
      amounts.map((amount, index) => ({ requestId: `req_${index}`, amount: -amount, balanceAfter: [19, 16, 14, 9, 8][index], operationId: 'scrapeWebPage' })),
    );
  });

  it('a hot key\'s refunds and top-ups of one turn: one update, each answered the balance after it, their rows in order', async () => {
    const { key } = await stores.keys.create({ credits: 1 });
    const balances = await Promise.all([stores.ledger.refund(key.id, 2, { requestId: 'req_a' }), stores.ledger.topUp(key.id, 10), stores.ledger.refund(key.id, 3, { requestId: 'req_b' })]);
    expect(balances).toEqual([3, 13, 16]);
    expect((await outside.ledger.entries(key.id)).map(({ kind, amount, balanceAfter }) => [kind, amount, balanceAfter])).toEqual([
      ['top_up', 1, 1], ['refund', 2, 3], ['top_up', 10, 13], ['refund', 3, 16],
    ]);
  });

  it('a hot key\'s rate-limit counts of one turn are one upsert per window they name, each answered its count as if counted alone (a newer window resets, an older one counts in the newer)', async () => {
    const { key } = await stores.keys.create({ credits: 1 });
    const windows = [60_000, 60_000, 60_000, 120_000, 120_000, 60_000, 120_000];
    const get = vi.spyOn(stores.database, 'get');
    expect(await Promise.all(windows.map((startsAt) => stores.rateLimits.count(key.id, startsAt)))).toEqual([1, 2, 3, 1, 2, 3, 4]);
    expect(get.mock.calls.filter(([sql]) => sql.includes('rate_limit_windows'))).toHaveLength(4);
    expect(await outside.rateLimits.count(key.id, 120_000)).toBe(5);
  });

  it('answers each charge only once its transaction has committed (another connection already sees its ledger row)', async () => {
    const { key } = await stores.keys.create({ credits: 10 });
    const seen = await Promise.all(Array.from({ length: 5 }, (_, index) => stores.ledger.charge(key.id, 1, { requestId: `req_${index}` })
      .then(async () => (await outside.ledger.entries(key.id)).some((entry) => entry.requestId === `req_${index}`))));
    expect(seen).toEqual([true, true, true, true, true]);
  });

  it('a write that fails in a group (a page charged twice) fails alone: the others of its turn are written', async () => {
    const { key } = await stores.keys.create({ credits: 10 });
    const results = await Promise.allSettled([
      stores.ledger.charge(key.id, 1, { requestId: 'req_a' }),
      stores.ledger.charge(key.id, 1, { jobId: 'job_1', pageSeq: 1 }),
      stores.rateLimits.count(key.id, 60_000),
      stores.ledger.charge(key.id, 1, { jobId: 'job_1', pageSeq: 1 }),
      stores.ledger.charge(key.id, 1, { requestId: 'req_b' }),
    ]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect((results[3] as PromiseRejectedResult).reason.message).toMatch(/ledger_one_charge_per_page|UNIQUE/);
    expect(await outside.ledger.balance(key.id)).toBe(7);
    expect((await outside.ledger.entries(key.id)).filter((entry) => entry.kind === 'charge')).toHaveLength(3);
    expect(await stores.rateLimits.count(key.id, 60_000)).toBe(2);
  });

  it('a charge inside an open transaction joins it and is rolled back with it', async () => {
    const { key } = await stores.keys.create({ credits: 10 });
    await expect(stores.database.transaction(async () => {
      expect(await stores.ledger.charge(key.id, 3, { requestId: 'req_rolled_back' })).toEqual({ ok: true, balance: 7 });
      throw new Error('the step failed');
    })).rejects.toThrow('the step failed');
    expect(await stores.ledger.balance(key.id)).toBe(10);
    expect((await stores.ledger.entries(key.id)).map((entry) => entry.kind)).toEqual(['top_up']);
  });

  it('the rate-limit counts, refunds and cache writes of one turn share the charges\' transaction, each answered its own count', async () => {
    const { key } = await stores.keys.create({ credits: 10 });
    await stores.ledger.charge(key.id, 2, { requestId: 'req_0' });
    const transaction = vi.spyOn(stores.database, 'transaction');
    const [counts, refund, charge] = await Promise.all([
      Promise.all(Array.from({ length: 10 }, () => stores.rateLimits.count(key.id, 60_000))),
      stores.ledger.refund(key.id, 2, { requestId: 'req_0' }),
      stores.ledger.charge(key.id, 1, { requestId: 'req_1' }),
      stores.cache.put('live:searchWeb:[]', { results: [1] }, 5_000),
    ]);
    expect(transaction).toHaveBeenCalledTimes(1);
    expect(await outside.cache.get('live:searchWeb:[]')).toEqual({ data: { results: [1] }, json: '{"results":[1]}', storedAtMs: 5_000 });
    expect([...counts].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect([refund, charge.balance].sort()).toEqual([10, 9].sort());
    expect(await outside.ledger.balance(key.id)).toBe(9);
  });

  it('two instances charging one key and counting its window in opposite orders never deadlock: every write succeeds', async () => {
    const { key } = await stores.keys.create({ credits: 1000 });
    const turn = (on: Stores, chargeFirst: boolean) => Promise.all(Array.from({ length: 10 }, (_, index) => (index % 2 === Number(chargeFirst)
      ? on.ledger.charge(key.id, 1, { requestId: `req_${chargeFirst}_${index}` })
      : on.rateLimits.count(key.id, 60_000))));
    const transactions = [vi.spyOn(stores.database, 'transaction'), vi.spyOn(outside.database, 'transaction')];
    await Promise.all(Array.from({ length: 5 }, () => Promise.all([turn(stores, true), turn(outside, false)])));
    // No group fell back to one transaction per write (what a deadlock's error would have caused).
    for (const spy of transactions) expect(spy.mock.calls.length).toBeLessThanOrEqual(5);
    expect(await stores.ledger.balance(key.id)).toBe(1000 - 50);
    expect(await stores.rateLimits.count(key.id, 60_000)).toBe(51);
  });
});

describe('GroupCommit', () => {
  it('runs the writes of a group by the rows they lock, in arrival order among equals', async () => {
    const order: string[] = [];
    const database = { inTransaction: () => false, transaction: <T>(work: () => Promise<T>) => work() } as never;
    const group = new GroupCommit(database);
    const write = (lockKey: string, name: string) => group.run(lockKey, async () => order.push(name));
    await Promise.all([write('rate_limit_windows:k1', 'count 1'), write('api_keys:k2', 'charge k2'), write('api_keys:k1', 'charge 1'), write('api_keys:k1', 'charge 2')]);
    expect(order).toEqual(['charge 1', 'charge 2', 'charge k2', 'count 1']);
  });
});
