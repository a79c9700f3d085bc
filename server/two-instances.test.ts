/**
 * Two server processes on one PostgreSQL database, driven at once: every rule that one instance
 * keeps holds across both — a balance spent exactly once, one execution per Idempotency-Key, one
 * rate-limit window per key.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStores, type Stores } from './store/index.ts';
import { newPostgresDatabase } from './test-support/postgres-database.ts';
import { startServerProcess, type ServerProcess } from './test-support/server-process.ts';

describe('two server instances on one PostgreSQL database', () => {
  let env: NodeJS.ProcessEnv;
  let instances: ServerProcess[];
  let stores: Stores;

  beforeAll(async () => {
    env = { DATABASE_URL: await newPostgresDatabase(), RATE_LIMIT: '1000000/60' };
    instances = await Promise.all([startServerProcess(env), startServerProcess(env)]);
    stores = await openStores(String(env.DATABASE_URL));
  });
  afterAll(async () => {
    const codes = await Promise.all(instances.map((instance) => instance.stop()));
    await stores.database.close();
    expect(codes).toEqual([0, 0]);
  });

  /** GET `path` on instance `index % 2` with the key, answering the status and the body. */
  async function call(index: number, path: string, key: string, headers: Record<string, string> = {}): Promise<{ status: number; body: any; headers: Headers }> {
    const answer = await fetch(`${instances[index % 2]!.baseUrl}${path}`, { headers: { 'x-api-key': key, ...headers } });
    return { status: answer.status, body: await answer.json(), headers: answer.headers };
  }

  it('200 concurrent 1-credit calls spread over both against a balance of 100: exactly 100 succeed, the balance is 0 and the ledger sums to it', async () => {
    const { secret, key: { id } } = await stores.keys.create({ credits: 100, sandbox: true });
    const answers = await Promise.all(Array.from({ length: 200 }, (_, index) => call(index, `/web/scrape?url=https://example.com/page-${index}`, secret)));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(100);
    expect(statuses.filter((status) => status === 402)).toHaveLength(100);
    expect(await stores.ledger.balance(id)).toBe(0);
    const entries = await stores.ledger.entries(id);
    expect(entries.reduce((sum, entry) => sum + entry.amount, 0)).toBe(0);
    expect(entries.filter((entry) => entry.kind === 'charge')).toHaveLength(100);
  }, 120_000);

  it('one Idempotency-Key sent to both at once: one execution, the other a replay or 409 idempotency_request_in_progress, charged once', async () => {
    const { secret, key: { id } } = await stores.keys.create({ credits: 10, sandbox: true });
    const headers = { 'Idempotency-Key': 'both-at-once' };
    const answers = await Promise.all([0, 1].map((index) => call(index, '/web/scrape?url=https://example.com/once', secret, headers)));
    const executed = answers.filter((answer) => answer.status === 200 && answer.headers.get('idempotent-replayed') === null);
    const others = answers.filter((answer) => !executed.includes(answer));
    expect(executed).toHaveLength(1);
    expect(others).toHaveLength(1);
    const other = others[0]!;
    if (other.status === 200) expect([other.headers.get('idempotent-replayed'), other.body]).toEqual(['true', executed[0]!.body]);
    else expect([other.status, other.body.error.code]).toEqual([409, 'idempotency_request_in_progress']);
    expect(await stores.ledger.balance(id)).toBe(9);
  }, 60_000);

  it('a key limited to 5 requests per window gets exactly 5 successes across both together', async () => {
    // One request per ten years: windows are aligned to the epoch, so a shorter one could reset mid-test.
    const { secret } = await stores.keys.create({ credits: 100, sandbox: true, rateLimit: { requests: 5, windowSeconds: 315_360_000 } });
    const answers = await Promise.all(Array.from({ length: 20 }, (_, index) => call(index, '/web/jobs', secret)));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(15);
    expect(answers.find((answer) => answer.status === 429)!.body.error.code).toBe('rate_limited');
  }, 60_000);
});
