/**
 * Two server processes on one PostgreSQL database (the engine for several instances; the lease SQL
 * runs on SQLite too, in-process: jobs/job-leases.test.ts): jobs, monitor checks and webhook
 * deliveries are claimed with leases, so each is done once across instances, a killed instance's
 * crawl is taken over when its lease expires, and an instance stopped with SIGTERM under load loses
 * no request, charges none twice and hands its crawl over at once.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, vi, type TestContext } from 'vitest';
import { openStores, type Stores } from './store/index.ts';
import type { SqlValue } from './store/sql.ts';
import { startServerProcess, type ServerProcess } from './test-support/server-process.ts';
import { newPostgresDatabase } from './test-support/postgres-database.ts';

/** A loopback site the tests' live keys read and webhooks reach: every request answers after `delayMs`, counted by path (GET) or webhook-id (POST). */
async function slowSite(delayMs: number): Promise<{ origin: string; hits: Map<string, number>; server: Server }> {
  const hits = new Map<string, number>();
  const server = createServer((request, response) => {
    const name = request.method === 'POST' ? `POST ${request.headers['webhook-id']}` : `GET ${request.url}`;
    hits.set(name, (hits.get(name) ?? 0) + 1);
    request.resume();
    setTimeout(() => {
      response.writeHead(request.method === 'POST' ? 204 : 200, { 'content-type': 'text/html' });
      response.end(request.method === 'POST' ? undefined : `<html><body><article><h1>${request.url}</h1><p>The page at ${request.url}, long enough to be the main content of the page.</p></article></body></html>`);
    }, delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits, server };
}

async function call(instance: ServerProcess, path: string, key: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) {
  const response = await fetch(`${instance.baseUrl}${path}`, {
    method: init.method ?? 'GET',
    headers: { 'x-api-key': key, ...(init.body === undefined ? {} : { 'content-type': 'application/json' }), ...init.headers },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  return { status: response.status, body: (await response.json()) as any };
}

interface JobRow {
  status: string;
  lease_owner: string | null;
}

const TEST_TIMEOUT_MS = 90_000;

/** Leases of a second, renewed every third of it: the heartbeats run many times in each test. */
const SHORT_LEASE = { LEASE_MS: '1000', JOB_TICK_MS: '50' };

/**
 * Two instances started with `more` on a database of the test's own (so tests that wait on leases,
 * ticks and crawls can run side by side: no instance claims another test's work), with the
 * database's stores for the test to read and issue keys through; killed and closed when the test ends.
 */
async function twoInstances({ onTestFinished }: TestContext, more: Record<string, string>) {
  const databaseUrl = await newPostgresDatabase();
  const stores: Stores = await openStores(databaseUrl);
  const started = await Promise.allSettled([0, 1].map(() => startServerProcess({ DATABASE_URL: databaseUrl, ALLOW_PRIVATE_NETWORK: 'true', ...more })));
  const instances = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  onTestFinished(async () => {
    await Promise.all(instances.map((instance) => instance.kill()));
    await stores.database.close();
  });
  const failed = started.find((result) => result.status === 'rejected');
  if (failed) throw failed.reason;
  return {
    instances,
    rows: <T>(sql: string, params: SqlValue[] = []) => stores.database.all<T>(sql, params),
    /** A key issued on the instances' database through the key store, as `key:create` issues it. */
    createKey: async (credits: number, sandbox: boolean) => (await stores.keys.create({ credits, sandbox })).secret,
  };
}

describe('two instances on one PostgreSQL database', () => {
  it('each monitor check and each webhook delivery happens once, though both instances see them due', async (context) => {
    // Pages and receivers answer after 1.5 s, longer than a tick: without leases both instances would check and deliver each.
    const site = await slowSite(1_500);
    // Leases of 3 s (renewed every second, so during each 1.5 s answer): with 1 s leases, a machine busy enough
    // to stall an instance for 0.7 s let the lease lapse mid-check and the other instance fetch the page again.
    const { instances: [first, second], rows, createKey } = await twoInstances(context, { ...SHORT_LEASE, LEASE_MS: '3000' });
    const live = await createKey(100, false);
    const sandbox = await createKey(100, true);
    const monitors = await Promise.all([0, 1, 2].map(async (index) => (await call(first!, '/web/monitors', live, { method: 'POST', body: { url: `${site.origin}/page-${index}` } })).body.data.monitor.id as string));
    await Promise.all([0, 1, 2].map((index) => call(second!, '/web/batch-scrape', sandbox, { method: 'POST', body: { urls: [`https://example.com/${index}`], webhook_url: `${site.origin}/hooks/${index}` } })));

    const checks = () => Promise.all(monitors.map(async (id) => (await rows<{ n: number }>('SELECT COUNT(*) AS n FROM monitor_checks WHERE monitor_id = ?', [id]))[0]!.n));
    const messages = () => rows<{ id: string; state: string }>('SELECT id, state FROM webhook_messages ORDER BY id');
    await vi.waitFor(async () => expect(await checks()).toEqual([1, 1, 1]), { timeout: 15_000, interval: 100 });
    await vi.waitFor(async () => expect((await messages()).map((message) => message.state)).toEqual(Array(9).fill('delivered')), { timeout: 20_000, interval: 100 });
    // Another tick of both instances: still one check and one delivery each.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await checks()).toEqual([1, 1, 1]);
    expect([0, 1, 2].map((index) => site.hits.get(`GET /page-${index}`))).toEqual([1, 1, 1]);
    expect((await messages()).map((message) => site.hits.get(`POST ${message.id}`))).toEqual(Array(9).fill(1));
    await new Promise((resolve) => site.server.close(resolve));
  }, TEST_TIMEOUT_MS);

  // This test and the next wait on leases, ticks and crawls for most of their time, each on its own database: side by side.
  it.concurrent('a crawl whose instance is killed (SIGKILL) mid-crawl is finished by the other after its lease expires, every page stored and charged once', async (context) => {
    const { instances, rows, createKey } = await twoInstances(context, SHORT_LEASE);
    const key = await createKey(1000, true);
    const submitted = await call(instances[0]!, '/web/crawl', key, { method: 'POST', body: { url: 'https://example.com/docs/', limit: 30 } });
    const jobId = submitted.body.data.job.id as string;
    const job = async () => (await rows<JobRow>('SELECT status, lease_owner FROM jobs WHERE id = ?', [jobId]))[0]!;
    const pages = async () => (await rows<{ seq: number }>('SELECT seq FROM job_pages WHERE job_id = ? ORDER BY seq', [jobId])).map((row) => row.seq);

    await vi.waitFor(async () => expect((await pages()).length).toBeGreaterThanOrEqual(5), { timeout: 15_000, interval: 20 });
    const ownerId = (await job()).lease_owner;
    const owner = instances.find((instance) => instance.instance === ownerId)!;
    const survivor = instances.find((instance) => instance !== owner)!;
    await owner.kill();
    expect((await job()).status).toBe('running');

    await vi.waitFor(async () => expect(await job()).toEqual({ status: 'completed', lease_owner: null }), { timeout: 20_000, interval: 100 });
    const answer = (await call(survivor, `/web/jobs/${jobId}`, key)).body.data.job;
    expect(answer.pages_completed).toBe(30);
    const stored = await pages();
    expect(stored).toEqual(Array.from({ length: 30 }, (_, index) => index + 1));
    const charges = await rows<{ job_page_seq: number; amount: number }>(`SELECT job_page_seq, amount FROM ledger WHERE job_id = ? AND kind = 'charge' ORDER BY job_page_seq`, [jobId]);
    expect(charges).toEqual(stored.map((seq) => ({ job_page_seq: seq, amount: -1 })));
  }, TEST_TIMEOUT_MS);

  it.concurrent('an instance stopped with SIGTERM under load loses no request and charges none twice, and hands its crawl to the other at once', async (context) => {
    // A lease far longer than the test: the crawl moves over because it is released, not because its lease expired.
    const { instances, rows, createKey } = await twoInstances(context, { LEASE_MS: '600000', JOB_TICK_MS: '50' });
    const key = await createKey(1000, true);
    const jobId = (await call(instances[0]!, '/web/crawl', key, { method: 'POST', body: { url: 'https://example.com/guide/', limit: 30 } })).body.data.job.id as string;
    const job = async () => (await rows<JobRow>('SELECT status, lease_owner FROM jobs WHERE id = ?', [jobId]))[0]!;
    await vi.waitFor(async () => expect((await job()).lease_owner).not.toBeNull(), { timeout: 15_000, interval: 20 });
    const ownerId = (await job()).lease_owner;
    const stopping = instances.find((instance) => instance.instance === ownerId)!;
    const survivor = instances.find((instance) => instance !== stopping)!;

    /** A client behind a load balancer: alternates instances, and sends a request the stopping one refused (or that met a claim in flight) again, with its Idempotency-Key, to the other. */
    const scrape = async (index: number): Promise<number> => {
      let target = index % 2 === 0 ? stopping : survivor;
      for (let attempt = 0; attempt < 50; attempt++) {
        try {
          const answer = await call(target, `/web/scrape?url=https://example.com/load/${index}`, key, { headers: { 'idempotency-key': `load-${index}` } });
          if (answer.status !== 409 && answer.status !== 503) return answer.status;
        } catch {
          // Refused or reset before an answer: the other instance takes it.
        }
        target = survivor;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return 0;
    };
    const load = Array.from({ length: 80 }, (_, index) => index);
    const answers: Promise<number>[] = [];
    let stopped: Promise<number | null> | undefined;
    for (const index of load) {
      answers.push(scrape(index));
      if (index === 30) stopped = stopping.stop();
      await new Promise((resolve) => setTimeout(resolve, 10));
    }

    expect(await Promise.all(answers)).toEqual(load.map(() => 200));
    expect(await stopped).toBe(0);
    const charges = await rows<{ request_id: string }>(`SELECT request_id FROM ledger WHERE operation_id = 'scrapeWebPage' AND kind = 'charge'`);
    expect(charges).toHaveLength(load.length);
    expect(new Set(charges.map((charge) => charge.request_id)).size).toBe(load.length);
    expect(await rows(`SELECT 1 FROM ledger WHERE operation_id = 'scrapeWebPage' AND kind = 'refund'`)).toEqual([]);

    await vi.waitFor(async () => expect((await job()).status).toBe('completed'), { timeout: 20_000, interval: 100 });
    const pages = (await rows<{ seq: number }>('SELECT seq FROM job_pages WHERE job_id = ? ORDER BY seq', [jobId])).map((row) => row.seq);
    expect(pages).toEqual(Array.from({ length: 30 }, (_, index) => index + 1));
    const pageCharges = await rows<{ job_page_seq: number }>(`SELECT job_page_seq FROM ledger WHERE job_id = ? AND kind = 'charge' ORDER BY job_page_seq`, [jobId]);
    expect(pageCharges.map((charge) => charge.job_page_seq)).toEqual(pages);
    expect((await call(survivor, `/web/jobs/${jobId}`, key)).body.data.job.pages_completed).toBe(30);
  }, TEST_TIMEOUT_MS);
});
