/**
 * Sandbox jobs whose upstream fails (the magic hosts `fail-<status>.sandbox.test`) end as live ones
 * do: `failed` with the cause in `job.error` when no page could be stored. A crawl or agent run of
 * a magic host used to throw inside the runner's tick, leaving the job queued forever.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test-support/test-server.ts';

describe('sandbox jobs that could store nothing', () => {
  let server: TestServer;
  beforeAll(async () => (server = await startTestServer()));
  afterAll(() => server.close());

  it.each([
    {
      job: 'a crawl of a host whose start page is 404',
      path: '/web/crawl',
      body: { url: 'https://fail-404.sandbox.test/docs/', webhook_url: 'https://hooks.example.com/wsdq' },
      expected: { status: 'failed', pages_completed: 0, pages_failed: 1, pages_total: 1, credits_used: 1, error: { code: 'upstream_not_found', message: 'The start page https://fail-404.sandbox.test/docs/ could not be fetched, so nothing could be crawled: The sandbox upstream answered 404 for https://fail-404.sandbox.test/docs/.' } },
      events: ['crawl.started', 'crawl.page', 'crawl.failed'],
    },
    {
      job: 'a batch scrape whose every page fails',
      path: '/web/batch-scrape',
      body: { urls: ['https://fail-502.sandbox.test/a', 'https://fail-404.sandbox.test/b'], webhook_url: 'https://hooks.example.com/wsdq' },
      expected: { status: 'failed', pages_completed: 0, pages_failed: 2, credits_used: 1, error: { code: 'upstream_failed', message: 'No page could be stored: https://fail-502.sandbox.test/a could not be fetched (The sandbox upstream answered 502 for https://fail-502.sandbox.test/a.), nor could the 1 other page.' } },
      events: ['batch_scrape.started', 'batch_scrape.page', 'batch_scrape.page', 'batch_scrape.failed'],
    },
    {
      job: 'an agent run from a host that answers 504',
      path: '/web/agent',
      body: { url: 'https://fail-504.sandbox.test/', prompt: 'What does it cost?' },
      expected: { status: 'failed', credits_used: 25, answer: null, error: { code: 'upstream_timeout', message: 'The sandbox upstream answered 504 for https://fail-504.sandbox.test/.' } },
      events: [],
    },
  ])('$job ends failed with the upstream error, not completed (or stuck queued)', async ({ path, body, expected, events }) => {
    const { secret, id } = server.key({ credits: 100 });
    const job = (await server.call(path, { method: 'POST', key: secret, body })).body.data.job;
    for (let tick = 0; tick < 5; tick++) server.runner.tick();
    const done = (await server.call(`/web/jobs/${job.id}`, { key: secret })).body.data.job;
    expect(done).toMatchObject(expected);
    expect(server.stores.ledger.balance(id)).toBe(100 - expected.credits_used);
    const messages = server.stores.webhooks.forKey(id);
    expect(messages.map((message) => message.eventType)).toEqual(events);
    if (events.length > 0) expect(JSON.parse(messages.at(-1)!.payload).data.job).toEqual(done);
  });
});
