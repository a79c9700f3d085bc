/** Live crawl and batch-scrape jobs (the job runner on the web provider's pages) against a local site: scope rules, robots.txt, charges, cancel, resume. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardedAgent } from '../outbound/guarded-agent.ts';
import { startTestServer, type TestServer } from '../test-support/test-server.ts';
import { Webhook } from 'standardwebhooks';
import { validatorAt, describeErrors } from '../../contract-tests/contract.ts';
import { WebhookDispatcher } from '../webhooks/dispatcher.ts';
import { ProviderRegistry } from '../providers/registry.ts';
import { sandboxProvider } from '../providers/sandbox/index.ts';
import { createWebProvider } from '../providers/web/index.ts';
import { JobRunner } from './job-runner.ts';
import { closedOrigin } from '../test-support/closed-origin.ts';

const LINKS: Record<string, string[]> = {
  '/docs/': ['/docs/a', '/docs/b', '/blog/post', 'https://other.example/x'],
  '/docs/a': ['/docs/a/deep', '/docs/private/secret'],
  '/docs/b': ['/docs/'],
  '/docs/a/deep': ['/docs/a/deeper'],
  '/wide/': Array.from({ length: 12 }, (_, index) => `/wide/${index}`),
};
/** Pages under /wide/ answer after a pause, so requests overlap and the site can count them. */
const WIDE_PAUSE_MS = 40;

describe('live jobs', () => {
  let site: Server;
  let origin: string;
  let server: TestServer;
  let runner: JobRunner;
  const policy = { allowPrivateNetwork: true };
  let receiver: Server;
  let receiverUrl: string;
  const deliveries: { headers: Record<string, string>; body: string }[] = [];
  let inFlight = 0;
  let mostInFlight = 0;

  beforeAll(async () => {
    site = createServer((request, response) => {
      const path = request.url ?? '/';
      if (path === '/robots.txt') {
        response.writeHead(200, { 'content-type': 'text/plain' });
        return response.end('User-agent: *\nDisallow: /docs/private/\nDisallow: /closed/\n');
      }
      if (path === '/stall') return;
      if (path === '/gone') {
        response.writeHead(404, { 'content-type': 'text/html' });
        return response.end('<h1>Gone</h1>');
      }
      const links = (LINKS[path] ?? []).map((href) => `<a href="${href}">${href}</a>`).join(' ');
      inFlight++;
      mostInFlight = Math.max(mostInFlight, inFlight);
      setTimeout(() => {
        inFlight--;
        response.writeHead(200, { 'content-type': 'text/html' });
        response.end(`<html><head><title>${path}</title></head><body><h1>Page ${path}</h1><p>Some text for ${path}.</p>${links}</body></html>`);
      }, path.startsWith('/wide/') ? WIDE_PAUSE_MS : 0);
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    receiver = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk));
      request.on('end', () => {
        deliveries.push({ headers: request.headers as Record<string, string>, body });
        response.writeHead(204);
        response.end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    // Receivers check webhook-timestamp against their own clock: the server's starts at the real time.
    server = await startTestServer({ clockStart: Date.now(), allowPrivateNetwork: true, web: {} });
    runner = new JobRunner(server.stores, server.clock, server.providers);
  });
  afterAll(async () => {
    await server.close();
    site.closeAllConnections();
    await new Promise<void>((resolve) => site.close(() => resolve()));
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  });

  /** The key's ledger rows after the top-up that created it. */
  const spending = async (keyId: string) => (await server.stores.ledger.entries(keyId)).filter((entry) => entry.kind !== 'top_up');

  async function submit(secret: string, path: string, body: Record<string, unknown>) {
    const answer = await server.call(path, { method: 'POST', key: secret, body });
    expect(answer.status).toBe(200);
    return answer.body.data.job as { id: string };
  }

  async function finished(secret: string, keyId: string, jobId: string) {
    await runner.work(keyId, jobId);
    return (await server.call(`/web/jobs/${jobId}?limit=100`, { key: secret })).body.data;
  }

  it('crawls breadth-first below the start path, honouring robots.txt and max_depth, charging each page', async () => {
    const { secret, id } = await server.key({ credits: 100, sandbox: false });
    const job = await submit(secret, '/web/crawl', { url: `${origin}/docs/`, max_depth: 2, formats: 'markdown' });
    const { job: done, pages } = await finished(secret, id, job.id);
    expect(pages.map((page: { url: string }) => new URL(page.url).pathname)).toEqual(['/docs/', '/docs/a', '/docs/b', '/docs/a/deep']);
    expect(done).toMatchObject({ status: 'completed', pages_completed: 4, pages_total: 4, credits_used: 5 });
    expect(pages[0].document.markdown).toContain('# Page /docs/');
    expect(await server.stores.ledger.balance(id)).toBe(95);
  });

  it('applies include_paths, exclude_paths and limit', async () => {
    const { secret, id } = await server.key({ credits: 100, sandbox: false });
    const included = await finished(secret, id, (await submit(secret, '/web/crawl', { url: `${origin}/docs/`, include_paths: '^/docs/a' })).id);
    expect(included.pages.map((page: { url: string }) => new URL(page.url).pathname)).toEqual(['/docs/', '/docs/a', '/docs/a/deep', '/docs/a/deeper']);
    const excluded = await finished(secret, id, (await submit(secret, '/web/crawl', { url: `${origin}/docs/`, exclude_paths: '/b$,deep' })).id);
    expect(excluded.pages.map((page: { url: string }) => new URL(page.url).pathname)).toEqual(['/docs/', '/docs/a']);
    const limited = await finished(secret, id, (await submit(secret, '/web/crawl', { url: `${origin}/docs/`, limit: 2 })).id);
    expect(limited.pages).toHaveLength(2);
  });

  it('fails a crawl whose start robots.txt disallows, refunding its submission (it kept the charge)', async () => {
    const { secret, id } = await server.key({ credits: 10, sandbox: false });
    const { job } = await finished(secret, id, (await submit(secret, '/web/crawl', { url: `${origin}/closed/page` })).id);
    expect(job).toMatchObject({ status: 'failed', credits_used: 0, error: { code: 'provider_policy_denied' } });
    expect(await server.stores.ledger.balance(id)).toBe(10);
    expect((await spending(id)).map((entry) => [entry.kind, entry.amount, entry.jobId])).toEqual([['charge', -1, null], ['refund', 1, job.id]]);
  });

  it.each([
    { job: 'a crawl that ran out of credits after storing pages', credits: 3, pagesCompleted: 2, creditsUsed: 3, balance: 0, ledger: [['charge', -1], ['charge', -1], ['charge', -1]] },
    { job: 'a crawl that ran out of credits before its first page', credits: 1, pagesCompleted: 0, creditsUsed: 0, balance: 1, ledger: [['charge', -1], ['refund', 1]] },
  ])('$job ends failed with insufficient_credits, keeping its charges only if it stored a page', async ({ credits, pagesCompleted, creditsUsed, balance, ledger }) => {
    const { secret, id } = await server.key({ credits, sandbox: false });
    const { job, pages } = await finished(secret, id, (await submit(secret, '/web/crawl', { url: `${origin}/docs/` })).id);
    expect(job).toMatchObject({ status: 'failed', pages_completed: pagesCompleted, credits_used: creditsUsed, error: { code: 'insufficient_credits' } });
    expect(pages).toHaveLength(pagesCompleted);
    expect(await server.stores.ledger.balance(id)).toBe(balance);
    expect((await spending(id)).map((entry) => [entry.kind, entry.amount])).toEqual(ledger);
  });

  it('scrapes a batch, recording failed pages without charging them', async () => {
    const { secret, id } = await server.key({ credits: 10, sandbox: false });
    const job = await submit(secret, '/web/batch-scrape', { urls: [`${origin}/docs/a`, `${origin}/gone`, `${origin}/docs/b`] });
    const { job: done, pages } = await finished(secret, id, job.id);
    expect(done).toMatchObject({ status: 'completed', pages_completed: 2, pages_failed: 1, credits_used: 3 });
    expect(pages[1]).toMatchObject({ document: null, error: { code: 'upstream_not_found' } });
    expect(await server.stores.ledger.balance(id)).toBe(7);
  });

  it('keeps at most 4 requests in flight to one host, however many jobs crawl it', async () => {
    const { secret, id } = await server.key({ credits: 100, sandbox: false });
    const jobs = [await submit(secret, '/web/crawl', { url: `${origin}/wide/` }), await submit(secret, '/web/crawl', { url: `${origin}/wide/` })];
    mostInFlight = 0;
    const results = await Promise.all(jobs.map((job) => finished(secret, id, job.id)));
    for (const { job } of results) expect(job).toMatchObject({ status: 'completed', pages_completed: 13 });
    expect(mostInFlight).toBeLessThanOrEqual(4);
    expect(mostInFlight).toBeGreaterThan(1);
  });

  it('stops a cancelled job, and resumes an interrupted one without fetching a stored page again', async () => {
    const { secret, id } = await server.key({ credits: 100, sandbox: false });
    const job = await submit(secret, '/web/crawl', { url: `${origin}/docs/`, formats: 'links' });
    const stopping = new JobRunner(server.stores, server.clock, server.providers);
    const first = stopping.work(id, job.id);
    stopping.stop();
    await first;
    const midway = (await server.call(`/web/jobs/${job.id}`, { key: secret })).body.data.job;
    expect(midway.status).toBe('running');

    const { job: done, pages } = await finished(secret, id, job.id);
    expect(done.status).toBe('completed');
    const urls = pages.map((page: { url: string }) => page.url);
    expect(new Set(urls).size).toBe(urls.length);
    expect((await server.stores.ledger.entries(id)).filter((entry) => entry.jobId === job.id)).toHaveLength(done.pages_completed);

    const cancelledJob = await submit(secret, '/web/crawl', { url: `${origin}/docs/` });
    await server.call(`/web/jobs/${cancelledJob.id}`, { method: 'DELETE', key: secret });
    const { job: cancelled, pages: none } = await finished(secret, id, cancelledJob.id);
    expect([cancelled.status, none.length]).toEqual(['cancelled', 0]);
    // A cancelled job keeps what it drew, its submission included: it is not refunded.
    expect(cancelled.credits_used).toBe(1);
    expect((await server.stores.ledger.entries(id)).filter((entry) => entry.kind === 'refund')).toEqual([]);
  });

  /** The events of `jobId` delivered to the receiver, signatures verified, each valid against the contract's JobEvent. */
  async function deliveredEvents(keyId: string, jobId: string) {
    const policy = { allowPrivateNetwork: true };
    await new WebhookDispatcher(server.stores, server.clock, guardedAgent(policy), policy).tick();
    const verifier = new Webhook((await server.stores.keys.get(keyId))!.webhookSecret);
    const validate = validatorAt('/components/schemas/JobEvent');
    const events = deliveries
      .filter((delivery) => (JSON.parse(delivery.body) as { data: { job: { id: string } } }).data.job.id === jobId)
      .map((delivery) => verifier.verify(delivery.body, delivery.headers) as { type: string; data: { job: { id: string; status: string; error: unknown } } });
    for (const event of events) expect(describeErrors(validate(event) ? [] : validate.errors), event.type).toEqual([]);
    return events;
  }

  describe('a job that could store no page ends failed, with the cause in job.error and in its failed event, and its submission refunded', () => {
    let unreachableOrigin: string;
    beforeAll(async () => {
      unreachableOrigin = await closedOrigin();
    });

    it.each([
      { job: 'a crawl whose start page is 404', path: '/web/crawl', body: () => ({ url: `${origin}/gone` }), code: 'upstream_not_found', message: () => `The start page ${origin}/gone could not be fetched, so nothing could be crawled: The page answered 404.`, pagesFailed: 1 },
      { job: 'a crawl of a host with nothing listening', path: '/web/crawl', body: () => ({ url: `${unreachableOrigin}/` }), code: 'upstream_failed', message: () => expect.stringMatching(new RegExp(`^The start page ${unreachableOrigin}/ could not be fetched, so nothing could be crawled: .*ECONNREFUSED`)), pagesFailed: 1 },
      { job: 'a crawl whose start page does not answer in time', path: '/web/crawl', body: () => ({ url: `${origin}/stall` }), code: 'upstream_timeout', message: () => `The start page ${origin}/stall could not be fetched, so nothing could be crawled: The page did not answer within the timeout of 300 ms.`, pagesFailed: 1 },
      { job: 'a batch scrape whose every page fails', path: '/web/batch-scrape', body: () => ({ urls: [`${origin}/gone`, `${unreachableOrigin}/a`] }), code: 'upstream_not_found', message: () => `No page could be stored: ${origin}/gone could not be fetched (The page answered 404.), nor could the 1 other page.`, pagesFailed: 2 },
    ])('$job ends failed with $code (not completed with error null) and is refunded: it kept its submission charge', async ({ path, body, code, message, pagesFailed }) => {
      const { secret, id } = await server.key({ credits: 10, sandbox: false });
      const submitted = await server.call(path, { method: 'POST', key: secret, body: { ...body(), webhook_url: receiverUrl } });
      expect([submitted.status, submitted.body.credits_used]).toEqual([200, 1]);
      const job = submitted.body.data.job as { id: string };
      const quickWeb = createWebProvider({ policy, agent: server.agent, pool: server.pool, limits: { timeoutMs: 300 } });
      const quick = new JobRunner(server.stores, server.clock, new ProviderRegistry({ crawlWebsite: 'web', batchScrapeWebPages: 'web' }, { web: quickWeb }, sandboxProvider));
      await quick.work(id, job.id);
      const { job: done, pages } = (await server.call(`/web/jobs/${job.id}?limit=100`, { key: secret })).body.data;

      expect(done).toMatchObject({ status: 'failed', pages_completed: 0, pages_failed: pagesFailed, pages_total: pagesFailed, credits_used: 0, error: { code, message: message() } });
      expect(done.completed_at).not.toBeNull();
      expect(pages[0]).toMatchObject({ document: null, error: { code } });
      expect(await server.stores.ledger.balance(id)).toBe(10);
      const operationId = path === '/web/crawl' ? 'crawlWebsite' : 'batchScrapeWebPages';
      expect((await spending(id)).map(({ kind, amount, balanceAfter, requestId, operationId, jobId }) => ({ kind, amount, balanceAfter, requestId, operationId, jobId }))).toEqual([
        { kind: 'charge', amount: -1, balanceAfter: 9, requestId: submitted.body.request_id, operationId, jobId: null },
        { kind: 'refund', amount: 1, balanceAfter: 10, requestId: submitted.body.request_id, operationId, jobId: job.id },
      ]);

      const events = await deliveredEvents(id, job.id);
      const kind = path === '/web/crawl' ? 'crawl' : 'batch_scrape';
      expect(events.map((event) => event.type)).toEqual([`${kind}.started`, ...Array.from({ length: pagesFailed }, () => `${kind}.page`), `${kind}.failed`]);
      expect(events.at(-1)!.data.job).toEqual(done);
    });
  });
});
