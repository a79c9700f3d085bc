/**
 * Sandbox jobs whose upstream fails (the magic hosts `fail-<status>.sandbox.test`) end as live ones
 * do: `failed` with the cause in `job.error` when no page could be stored, and a crawl or batch
 * scrape that stored nothing, or an agent run that could read nothing, gets its submission charge
 * back. A crawl or agent run of a magic host
 * used to throw inside the runner's tick, leaving the job queued forever; a crawl or batch scrape
 * that stored nothing used to keep its submission charge.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test-support/test-server.ts';
import { endJob, endedJob, firstPage } from './job-end.ts';

describe('sandbox jobs that could store nothing', () => {
  let server: TestServer;
  beforeAll(async () => (server = await startTestServer()));
  afterAll(() => server.close());

  /** The key's ledger rows after the top-up that created it. */
  const spending = async (keyId: string) => (await server.stores.ledger.entries(keyId)).filter((entry) => entry.kind !== 'top_up');

  it.each([
    {
      job: 'a crawl of a host whose start page is 404',
      path: '/web/crawl',
      body: { url: 'https://fail-404.sandbox.test/docs/', webhook_url: 'https://hooks.example.com/wsdq' },
      expected: { status: 'failed', pages_completed: 0, pages_failed: 1, pages_total: 1, credits_used: 0, error: { code: 'upstream_not_found', message: 'The start page https://fail-404.sandbox.test/docs/ could not be fetched, so nothing could be crawled: The sandbox upstream answered 404 for https://fail-404.sandbox.test/docs/.' } },
      events: ['crawl.started', 'crawl.page', 'crawl.failed'],
      ledger: [['charge', -1, 'crawlWebsite', false], ['refund', 1, 'crawlWebsite', true]],
    },
    {
      job: 'a batch scrape whose every page fails',
      path: '/web/batch-scrape',
      body: { urls: ['https://fail-502.sandbox.test/a', 'https://fail-404.sandbox.test/b'], webhook_url: 'https://hooks.example.com/wsdq' },
      expected: { status: 'failed', pages_completed: 0, pages_failed: 2, credits_used: 0, error: { code: 'upstream_failed', message: 'No page could be stored: https://fail-502.sandbox.test/a could not be fetched (The sandbox upstream answered 502 for https://fail-502.sandbox.test/a.), nor could the 1 other page.' } },
      events: ['batch_scrape.started', 'batch_scrape.page', 'batch_scrape.page', 'batch_scrape.failed'],
      ledger: [['charge', -1, 'batchScrapeWebPages', false], ['refund', 1, 'batchScrapeWebPages', true]],
    },
    {
      job: 'an agent run from a host that answers 504',
      path: '/web/agent',
      body: { url: 'https://fail-504.sandbox.test/', prompt: 'What does it cost?' },
      expected: { status: 'failed', credits_used: 0, answer: null, error: { code: 'upstream_timeout', message: 'The start page https://fail-504.sandbox.test/ could not be read, so the agent had nothing to answer from: The sandbox upstream answered 504 for https://fail-504.sandbox.test/.' } },
      events: [],
      ledger: [['charge', -25, 'runWebAgent', false], ['refund', 25, 'runWebAgent', true]],
    },
  ])('$job ends failed with the upstream error, not completed (or stuck queued), and is refunded (an agent run that failed used to keep its 25 credits)', async ({ path, body, expected, events, ledger }) => {
    const { secret, id } = await server.key({ credits: 100 });
    const submitted = (await server.call(path, { method: 'POST', key: secret, body })).body;
    const job = submitted.data.job;
    for (let tick = 0; tick < 5; tick++) await server.runner.tick();
    const done = (await server.call(`/web/jobs/${job.id}`, { key: secret })).body.data.job;
    expect(done).toMatchObject(expected);
    expect(await server.stores.ledger.balance(id)).toBe(100 - expected.credits_used);
    const entries = await spending(id);
    expect(entries.map((entry) => [entry.kind, entry.amount, entry.operationId, entry.jobId === job.id])).toEqual(ledger);
    for (const entry of entries) expect(entry.requestId).toBe(submitted.request_id);
    const messages = await server.stores.webhooks.forKey(id);
    expect(messages.map((message) => message.eventType)).toEqual(events);
    if (events.length > 0) expect(JSON.parse(messages.at(-1)!.payload).data.job).toEqual(done);
  });

  it('a job whose end is processed twice (a restart replaying its last step, a second worker) is refunded once and announced once', async () => {
    const { secret, id } = await server.key({ credits: 10 });
    const submitted = (await server.call('/web/crawl', { method: 'POST', key: secret, body: { url: 'https://fail-404.sandbox.test/', webhook_url: 'https://hooks.example.com/wsdq' } })).body;
    await server.runner.tick();
    await server.runner.tick();
    const visited = (await server.stores.jobs.get(id, submitted.data.job.id))!;
    expect(visited.job).toMatchObject({ status: 'running', pages_failed: 1 });

    const ending = async () => endJob(server.stores, server.clock, visited, endedJob(visited.job, await firstPage(server.stores, visited), visited.job.updated_at));
    expect([await ending(), await ending()]).toEqual([true, false]);
    await server.runner.tick();

    expect((await server.stores.jobs.get(id, visited.job.id))!.job).toMatchObject({ status: 'failed', credits_used: 0 });
    expect(await server.stores.ledger.balance(id)).toBe(10);
    expect((await spending(id)).map((entry) => entry.kind)).toEqual(['charge', 'refund']);
    expect((await server.stores.webhooks.forKey(id)).map((message) => message.eventType)).toEqual(['crawl.started', 'crawl.page', 'crawl.failed']);
    // The ledger itself refuses a second refund of the job, changing nothing.
    await expect(server.stores.ledger.refund(id, 1, { jobId: visited.job.id })).rejects.toThrow(/UNIQUE/);
    expect(await server.stores.ledger.balance(id)).toBe(10);
  });
});
