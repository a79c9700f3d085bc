/** Jobs under leases, two runners on one database: one runs a job at a time, and one that lost its lease writes nothing more. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORE_BACKENDS } from '../test-support/store-backends.ts';
import { startTestServer, type TestServer } from '../test-support/test-server.ts';
import { JobRunner } from './job-runner.ts';

const LEASE_MS = 60_000;

describe.each(STORE_BACKENDS)('jobs under leases on $name', ({ newLocation }) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ databaseUrl: await newLocation() });
  });
  afterAll(async () => {
    await server.close();
  });

  const runner = (owner: string) => new JobRunner(server.stores, server.clock, server.providers, undefined, { owner, leaseMs: LEASE_MS });
  const pageSeqs = async (jobId: string) => (await server.stores.database.all<{ seq: number }>('SELECT seq FROM job_pages WHERE job_id = ? ORDER BY seq', [jobId])).map((row) => row.seq);

  it('a runner whose lease was taken over (it stalled past LEASE_MS) writes nothing more of the job: its next step is rolled back, and every page is stored and charged once', async () => {
    const { secret, id } = await server.key({ credits: 100 });
    const job = (await server.call('/web/crawl', { method: 'POST', key: secret, body: { url: 'https://example.com/guide/', limit: 6 } })).body.data.job;
    const [stalled, other] = [runner('stalled'), runner('other')];
    await stalled.tick();
    await stalled.tick();
    await other.tick();
    expect(await pageSeqs(job.id)).toEqual([1]);

    server.clock.advance(LEASE_MS);
    await other.tick();
    expect(await pageSeqs(job.id)).toEqual([1, 2]);
    await stalled.tick();
    expect(await pageSeqs(job.id)).toEqual([1, 2]);

    for (let tick = 0; tick < 6; tick++) await Promise.all([stalled.tick(), other.tick()]);
    const done = (await server.call(`/web/jobs/${job.id}`, { key: secret })).body.data.job;
    expect(done).toMatchObject({ status: 'completed', pages_completed: 6 });
    expect(await pageSeqs(job.id)).toEqual([1, 2, 3, 4, 5, 6]);
    const charges = await server.stores.database.all<{ job_page_seq: number }>(`SELECT job_page_seq FROM ledger WHERE key_id = ? AND job_id = ? AND kind = 'charge' ORDER BY job_page_seq`, [id, job.id]);
    expect(charges.map((charge) => charge.job_page_seq)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(await server.stores.database.get('SELECT lease_owner FROM jobs WHERE id = ?', [job.id])).toEqual({ lease_owner: null });
  });
});
