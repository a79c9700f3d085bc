/** Sandbox jobs on real state: progress to completed, pages charged one by one, cancel, delete, resume after restart. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JobRunner } from '../jobs/job-runner.ts';
import { DEFAULT_LEASE_MS } from '../held-lease.ts';
import { sandboxAgentAnswer } from '../providers/sandbox/web.ts';
import { startTestServer, type TestServer } from '../test-support/test-server.ts';

describe('jobs', () => {
  let server: TestServer;
  beforeAll(async () => (server = await startTestServer()));
  afterAll(() => server.close());

  const ticks = async (count: number, runner = server.runner) => {
    for (let tick = 0; tick < count; tick++) await runner.tick();
  };

  it('runs a crawl to completed, storing and charging each page, served with cursor pagination', async () => {
    const { secret, id } = await server.key({ credits: 100 });
    const submitted = await server.call('/web/crawl', { method: 'POST', key: secret, body: { url: 'https://example.com/docs/', limit: 5, formats: 'markdown,links' } });
    const job = submitted.body.data.job;
    expect(job).toMatchObject({ kind: 'crawl', status: 'queued', credits_used: 1 });

    await ticks(1);
    expect((await server.call(`/web/jobs/${job.id}`, { key: secret })).body.data.job).toMatchObject({ status: 'running', pages_total: 5 });
    await ticks(10);
    const first = await server.call(`/web/jobs/${job.id}?limit=3`, { key: secret });
    expect(first.body.data.job).toMatchObject({ status: 'completed', pages_completed: 5, pages_failed: 0, credits_used: 6 });
    expect(first.body.data.pages).toHaveLength(3);
    expect(Object.keys(first.body.data.pages[0].document).sort()).toEqual(['links', 'markdown', 'url']);
    const rest = await server.call(`/web/jobs/${job.id}?limit=3&cursor=${first.body.data.next_cursor}`, { key: secret });
    expect(rest.body.data.pages).toHaveLength(2);
    expect(rest.body.data.next_cursor).toBeNull();
    expect(await server.stores.ledger.balance(id)).toBe(94);
    expect((await server.stores.ledger.entries(id)).filter((entry) => entry.jobId === job.id)).toHaveLength(5);
  });

  it('cancels a running job on delete: no page after, record kept; a second delete removes it', async () => {
    const { secret } = await server.key({ credits: 100 });
    const job = (await server.call('/web/crawl', { method: 'POST', key: secret, body: { url: 'https://example.com/blog/', limit: 20 } })).body.data.job;
    await ticks(3);
    const cancelled = await server.call(`/web/jobs/${job.id}`, { method: 'DELETE', key: secret });
    expect(cancelled.body.data).toMatchObject({ deleted: false, job: { status: 'cancelled' } });
    const pagesAtCancel = cancelled.body.data.job.pages_completed;
    await ticks(5);
    expect((await server.call(`/web/jobs/${job.id}`, { key: secret })).body.data.job.pages_completed).toBe(pagesAtCancel);

    const removed = await server.call(`/web/jobs/${job.id}`, { method: 'DELETE', key: secret });
    expect(removed.body.data.deleted).toBe(true);
    expect((await server.call(`/web/jobs/${job.id}`, { key: secret })).status).toBe(404);
  });

  it('fails a job that runs out of credits, keeping its pages', async () => {
    const { secret } = await server.key({ credits: 3 });
    const job = (await server.call('/web/batch-scrape', { method: 'POST', key: secret, body: { urls: ['https://example.com/1', 'https://example.com/2', 'https://example.com/3', 'https://example.com/4'] } })).body.data.job;
    await ticks(10);
    const done = (await server.call(`/web/jobs/${job.id}`, { key: secret })).body.data;
    expect(done.job).toMatchObject({ status: 'failed', pages_completed: 2, error: { code: 'insufficient_credits' } });
    expect(done.pages).toHaveLength(2);
  });

  it('records failed pages without charging them, and lists invalid URLs it was told to skip', async () => {
    const { secret, id } = await server.key({ credits: 10 });
    const body = { urls: ['https://example.com/ok', 'https://fail-404.sandbox.test/gone', 'not a url'], ignore_invalid_urls: true };
    const job = (await server.call('/web/batch-scrape', { method: 'POST', key: secret, body })).body.data.job;
    expect(job.invalid_urls).toEqual(['not a url']);
    await ticks(5);
    const done = (await server.call(`/web/jobs/${job.id}`, { key: secret })).body.data;
    expect(done.job).toMatchObject({ status: 'completed', pages_completed: 1, pages_failed: 1, credits_used: 2 });
    expect(done.pages[1]).toMatchObject({ url: 'https://fail-404.sandbox.test/gone', document: null, error: { code: 'upstream_not_found' } });
    expect(await server.stores.ledger.balance(id)).toBe(8);
  });

  it('refuses invalid URLs unless told to skip them', async () => {
    const answer = await server.call('/web/batch-scrape', { method: 'POST', key: (await server.key()).secret, body: { urls: ['https://example.com/ok', 'ftp://example.com/file'] } });
    expect([answer.status, answer.body.error.message]).toEqual([422, 'Invalid parameters: body.urls holds URLs that are not absolute http or https URLs: "ftp://example.com/file".']);
  });

  it('refuses an agent job on a non-public or unreadable URL, uncharged (it queued the job and drew 25 credits)', async () => {
    const cases = [
      { url: 'http://127.0.0.1/admin', code: 'url_not_allowed' },
      { url: 'http://169.254.169.254/latest/meta-data/', code: 'url_not_allowed' },
      { url: 'https://a.0/', code: 'invalid_parameters' },
    ];
    for (const { url, code } of cases) {
      const { secret, id } = await server.key({ credits: 100 });
      const answer = await server.call('/web/agent', { method: 'POST', key: secret, body: { url, prompt: 'What is on this page?' } });
      expect([answer.status, answer.body.error?.code, answer.body.credits_used], url).toEqual([422, code, 0]);
      expect(await server.stores.ledger.balance(id)).toBe(100);
    }
  });

  it('resumes a running job with a new runner (a restarted server), storing no page twice', async () => {
    const { secret } = await server.key({ credits: 100 });
    const job = (await server.call('/web/crawl', { method: 'POST', key: secret, body: { url: 'https://example.com/guide/', limit: 6 } })).body.data.job;
    await ticks(3);
    // The old runner's process is gone: its lease on the job expires, and the new runner takes the job over.
    server.clock.advance(DEFAULT_LEASE_MS);
    const restarted = new JobRunner(server.stores, server.clock, server.providers);
    await ticks(10, restarted);
    const done = (await server.call(`/web/jobs/${job.id}?limit=100`, { key: secret })).body.data;
    expect(done.job).toMatchObject({ status: 'completed', pages_completed: 6 });
    expect(new Set(done.pages.map((page: { url: string }) => page.url)).size).toBe(6);
  });

  it('answers an agent job with its answer, one step per tick: start, read the 2 pages of its plan, answer', async () => {
    const { secret } = await server.key({ credits: 100 });
    const job = (await server.call('/web/agent', { method: 'POST', key: secret, body: { url: 'https://example.com', prompt: 'Who runs this site?' } })).body.data.job;
    await ticks(3);
    expect((await server.call(`/web/jobs/${job.id}`, { key: secret })).body.data.job.status).toBe('running');
    await ticks(1);
    const done = (await server.call(`/web/jobs/${job.id}`, { key: secret })).body.data.job;
    expect(done.status).toBe('completed');
    expect(done.answer.text.length).toBeGreaterThan(0);
    expect(done.answer).toEqual(sandboxAgentAnswer('https://example.com', 'Who runs this site?', 'spark-1-mini'));
    expect(done.credits_used).toBe(25);
  });

  it('answers 503 with no credits for jobs of a live key', async () => {
    const { secret, id } = await server.key({ credits: 10, sandbox: false });
    const answer = await server.call('/web/crawl', { method: 'POST', key: secret, body: { url: 'https://example.com' } });
    expect([answer.status, answer.body.error.code]).toEqual([503, 'provider_unavailable']);
    expect(await server.stores.ledger.balance(id)).toBe(10);
  });
});
