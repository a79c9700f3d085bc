/**
 * The job runner takes a job's pages from the page source of the provider the registry gives for
 * the job's key, paced as that source says; a job running in the background never holds back the
 * next tick's jobs.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { sandboxProvider } from '../providers/sandbox/index.ts';
import type { DataProvider, PageSource } from '../providers/types.ts';
import { startTestServer, type TestServer } from '../test-support/test-server.ts';

/** A page source that makes up pages like the sandbox's, recording what it was asked and waiting for `gate` (when given) before each page. */
function recordingSource(pace: Pick<PageSource, 'pagesPerStep' | 'fetchesAtOnce' | 'oneStepPerTick'>, gate?: Promise<void>): PageSource & { asked: string[] } {
  const asked: string[] = [];
  return {
    ...pace,
    asked,
    async page(url, request) {
      asked.push(url);
      await gate;
      return sandboxProvider.pages!.page(url, request);
    },
    robots: async () => ({ isAllowed: () => undefined }),
  };
}

const providerWith = (pages: PageSource): DataProvider => ({ name: 'recorded', fetch: async () => ({}), pages });

describe('the job runner', () => {
  let server: TestServer | undefined;
  afterEach(() => server?.close());

  it('runs a live batch scrape on the page source routed for batchScrapeWebPages, pagesPerStep pages per tick', async () => {
    const source = recordingSource({ pagesPerStep: 2, fetchesAtOnce: 2, oneStepPerTick: true });
    server = await startTestServer({ providers: { recorded: providerWith(source) }, routes: { batchScrapeWebPages: 'recorded' } });
    const { secret, id } = await server.key({ credits: 10, sandbox: false });
    const urls = ['https://example.com/1', 'https://example.com/2', 'https://example.com/3'];
    const job = (await server.call('/web/batch-scrape', { method: 'POST', key: secret, body: { urls } })).body.data.job;
    const progress = [];
    for (let tick = 0; tick < 4; tick++) {
      await server.runner.tick();
      const { status, pages_completed } = (await server.stores.jobs.get(id, job.id))!.job;
      progress.push([status, pages_completed]);
    }
    expect(progress).toEqual([['running', 0], ['running', 2], ['running', 3], ['completed', 3]]);
    expect(source.asked).toEqual(urls);
    expect(await server.stores.ledger.balance(id)).toBe(10 - 1 - 3);
  });

  it('a sandbox crawl follows the crawl policy as a live one does, and its running pages_total counts only what it will visit', async () => {
    server = await startTestServer();
    const { secret, id } = await server.key({ credits: 10 });
    const crawl = async (body: Record<string, unknown>) => {
      const job = (await server!.call('/web/crawl', { method: 'POST', key: secret, body: { url: 'https://example.com/docs/', limit: 5, ...body } })).body.data.job;
      await server!.runner.tick();
      const running = (await server!.stores.jobs.get(id, job.id))!.job.pages_total;
      for (let tick = 0; tick < 8; tick++) await server!.runner.tick();
      const done = (await server!.stores.jobs.get(id, job.id))!.job;
      return [running, done.status, done.pages_completed];
    };
    expect(await crawl({})).toEqual([5, 'completed', 5]);
    expect(await crawl({ exclude_paths: '^/docs/.' })).toEqual([1, 'completed', 1]);
    expect(await crawl({ max_depth: 0 })).toEqual([1, 'completed', 1]);
  });

  it('a live job that runs in the background does not hold back the next tick: a sandbox job submitted meanwhile advances', async () => {
    let release!: () => void;
    const source = recordingSource({ pagesPerStep: 16, fetchesAtOnce: 4, oneStepPerTick: false }, new Promise<void>((resolve) => (release = resolve)));
    server = await startTestServer({ providers: { recorded: providerWith(source) }, routes: { crawlWebsite: 'recorded' } });
    const live = await server.key({ credits: 10, sandbox: false });
    const liveJob = (await server.call('/web/crawl', { method: 'POST', key: live.secret, body: { url: 'https://example.com/docs/', limit: 1 } })).body.data.job;
    await server.runner.tick();
    await expect.poll(() => source.asked).toEqual(['https://example.com/docs/']);

    const sandbox = await server.key({ credits: 10 });
    const sandboxJob = (await server.call('/web/batch-scrape', { method: 'POST', key: sandbox.secret, body: { urls: ['https://example.com/a'] } })).body.data.job;
    for (let tick = 0; tick < 3; tick++) await server.runner.tick();
    expect((await server.stores.jobs.get(sandbox.id, sandboxJob.id))!.job.status).toBe('completed');
    expect((await server.stores.jobs.get(live.id, liveJob.id))!.job.status).toBe('running');

    release();
    await expect.poll(async () => (await server!.stores.jobs.get(live.id, liveJob.id))!.job.status).toBe('completed');
  });
});
