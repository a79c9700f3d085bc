/**
 * Cases for the live target only: the real server with a live key fetching the local test site
 * (server/test-support/test-site.ts), whose URLs the suite writes on CASE_SITE_ORIGIN. They show
 * what the web provider really did: the page's own content, the upstream's failures mapped to the
 * contract's errors uncharged, and crawl and batch-scrape jobs run to their end.
 */
import { expect } from 'vitest';
import type { ErrorCode } from '../../generated/errors.ts';
import { contractOperations, type ContractOperation } from '../contract.ts';
import type { ContractCase } from './cases.ts';
import { CASE_SITE_ORIGIN } from './targets.ts';
import type { Call, CallResult } from './valid-requests.ts';

const WAIT_MS = 20_000;

function operation(operationId: string): ContractOperation {
  return contractOperations().find((candidate) => candidate.operationId === operationId)!;
}

/** Polls `read` every 100 ms until `done` holds of its answer, for at most WAIT_MS. */
async function waitFor(what: string, read: () => Promise<CallResult>, done: (answer: CallResult) => boolean): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  while (!done(await read())) {
    if (Date.now() > deadline) throw new Error(`${what} after ${WAIT_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Submits a job and waits for it to end; its id is the case's path parameter. */
function finishedJob(path: string, body: Record<string, unknown>) {
  return async (call: Call): Promise<Record<string, string>> => {
    const submitted = await call({ method: 'POST', path, body });
    expect(submitted.status, `job submission: ${JSON.stringify(submitted.body)}`).toBe(200);
    const jobId = String(submitted.body.data.job.id);
    await waitFor(`job ${jobId} still running`, () => call({ method: 'GET', path: `/web/jobs/${jobId}`, query: { limit: '1' } }), ({ body }) => !['queued', 'running'].includes(body.data?.job?.status));
    return { job_id: jobId };
  };
}

/** Creates a monitor and waits for its first check (the scheduler checks a new monitor at once). */
function checkedMonitor(body: Record<string, unknown>) {
  return async (call: Call): Promise<Record<string, string>> => {
    const created = await call({ method: 'POST', path: '/web/monitors', body });
    expect(created.status, `monitor creation: ${JSON.stringify(created.body)}`).toBe(200);
    const monitorId = String(created.body.data.monitor.id);
    await waitFor(`monitor ${monitorId} not checked`, () => call({ method: 'GET', path: `/web/monitors/${monitorId}` }), ({ body }) => body.data?.monitor?.last_check !== null);
    return { monitor_id: monitorId };
  };
}

const pathsOf = (pages: { url: string }[]) => pages.map((page) => new URL(page.url).pathname).sort();

const scrape = operation('scrapeWebPage');
const UPSTREAM_FAILURES: { path: string; query: Record<string, string>; status: number; code: ErrorCode }[] = [
  { path: '/missing', query: {}, status: 404, code: 'upstream_not_found' },
  { path: '/forbidden', query: {}, status: 400, code: 'upstream_rejected' },
  { path: '/broken', query: {}, status: 502, code: 'upstream_failed' },
  { path: '/slow', query: { timeout: '1000' }, status: 504, code: 'upstream_timeout' },
];
const upstreamFailures = UPSTREAM_FAILURES.map(({ path, query, status, code }): ContractCase => ({
  name: `scrapeWebPage (live): ${path} on the site answers ${status} ${code}, uncharged`,
  operation: scrape,
  method: 'GET',
  path: scrape.path,
  query: { url: `${CASE_SITE_ORIGIN}${path}`, ...query },
  only: ['server-live'],
  expected: { status, code, check: (answer) => expect(answer.body.credits_used).toBe(0) },
}));

const getJob = operation('getJob');
/** A URL of a host nothing listens on: port 1 of loopback refuses the connection at once. */
const UNREACHABLE_URL = 'http://127.0.0.1:1/';

const getMonitor = operation('getMonitor');
const createMonitor = operation('createMonitor');

export const liveCases: ContractCase[] = [
  {
    name: 'scrapeWebPage (live): the article as Markdown, without its navigation, ads or footer',
    operation: scrape,
    method: 'GET',
    path: scrape.path,
    query: { url: `${CASE_SITE_ORIGIN}/blog/launch`, formats: 'markdown,metadata,links' },
    only: ['server-live'],
    expected: {
      status: 200,
      check: ({ body }) => {
        expect(body.data.metadata.title).toBe('We launched the planner');
        expect(body.data.markdown).toContain('## What changed');
        expect(body.data.markdown).toContain('| Plan | Price |\n| --- | --- |\n| Team | $49 |');
        expect(body.data.markdown).not.toMatch(/BUY NOW|© 2026/);
        expect(body.credits_used).toBe(scrape.object['x-credit-cost']);
      },
    },
  },
  ...upstreamFailures,
  {
    name: 'mapWebsite (live): links from the sitemap index (a gzipped sitemap too) and the pages',
    operation: operation('mapWebsite'),
    method: 'GET',
    path: operation('mapWebsite').path,
    query: { url: CASE_SITE_ORIGIN, limit: '100' },
    only: ['server-live'],
    expected: {
      status: 200,
      check: ({ body }) => expect(pathsOf(body.data.links)).toEqual(expect.arrayContaining(['/blog/launch', '/docs/', '/docs/api', '/docs/start', '/pricing'])),
    },
  },
  {
    name: 'mapWebsite (live): a host that cannot be reached answers 502 upstream_failed, uncharged, not 200 with no links',
    operation: operation('mapWebsite'),
    method: 'GET',
    path: operation('mapWebsite').path,
    query: { url: UNREACHABLE_URL },
    only: ['server-live'],
    expected: { status: 502, code: 'upstream_failed', messageIncludes: [`The site of ${UNREACHABLE_URL} could not be mapped`], check: (answer) => expect([answer.body.credits_used, answer.headers.get('x-cache')]).toEqual([0, 'BYPASS']) },
  },
  {
    name: 'getJob (live): a crawl of the docs ends completed, each page once, through their link loop',
    operation: getJob,
    method: 'GET',
    path: getJob.path,
    prepare: finishedJob('/web/crawl', { url: `${CASE_SITE_ORIGIN}/docs/`, limit: 10, max_depth: 3 }),
    only: ['server-live'],
    expected: {
      status: 200,
      check: ({ body }) => {
        expect(body.data.job).toMatchObject({ status: 'completed', pages_completed: 4, pages_failed: 0, credits_used: 1 + 4 });
        expect(pathsOf(body.data.pages)).toEqual(['/docs/', '/docs/api', '/docs/guide', '/docs/start']);
        const text: Record<string, string> = { '/docs/': 'Start here.', '/docs/start': 'Install the planner.', '/docs/api': 'Every endpoint.', '/docs/guide': 'Plan a week.' };
        for (const page of body.data.pages) expect(page.document.markdown).toContain(text[new URL(page.url).pathname]);
      },
    },
  },
  {
    name: 'getJob (live): a crawl whose start robots.txt disallows ends failed with provider_policy_denied',
    operation: getJob,
    method: 'GET',
    path: getJob.path,
    prepare: finishedJob('/web/crawl', { url: `${CASE_SITE_ORIGIN}/private/secret`, limit: 5 }),
    only: ['server-live'],
    expected: { status: 200, check: ({ body }) => expect(body.data.job).toMatchObject({ status: 'failed', pages_completed: 0, error: { code: 'provider_policy_denied' } }) },
  },
  {
    name: 'getJob (live): a crawl whose start page is 404 ends failed with upstream_not_found, not completed with error null',
    operation: getJob,
    method: 'GET',
    path: getJob.path,
    prepare: finishedJob('/web/crawl', { url: `${CASE_SITE_ORIGIN}/missing`, limit: 5 }),
    only: ['server-live'],
    expected: {
      status: 200,
      check: ({ body }) => {
        expect(body.data.job).toMatchObject({ status: 'failed', pages_completed: 0, pages_failed: 1, credits_used: 1, error: { code: 'upstream_not_found' } });
        expect(body.data.job.error.message).toContain('/missing could not be fetched');
      },
    },
  },
  {
    name: 'getJob (live): a batch scrape stores the pages that answer and lists the one that does not, uncharged',
    operation: getJob,
    method: 'GET',
    path: getJob.path,
    prepare: finishedJob('/web/batch-scrape', { urls: [`${CASE_SITE_ORIGIN}/a`, `${CASE_SITE_ORIGIN}/b`, `${CASE_SITE_ORIGIN}/missing`] }),
    only: ['server-live'],
    expected: {
      status: 200,
      check: ({ body }) => {
        expect(body.data.job).toMatchObject({ status: 'completed', pages_completed: 2, pages_failed: 1, credits_used: 1 + 2 });
        const missing = body.data.pages.find((page: { url: string }) => page.url.endsWith('/missing'));
        expect(missing).toMatchObject({ document: null, error: { code: 'upstream_not_found' } });
      },
    },
  },
  {
    name: 'getMonitor (live): a new monitor of the pricing page shows its first check, a baseline',
    operation: getMonitor,
    method: 'GET',
    path: getMonitor.path,
    prepare: checkedMonitor({ url: `${CASE_SITE_ORIGIN}/pricing`, cadence_minutes: 60 }),
    only: ['server-live'],
    expected: { status: 200, check: ({ body }) => expect(body.data.monitor.last_check).toMatchObject({ outcome: 'baseline', status_code: 200, diff: null, error: null }) },
  },
  {
    name: 'getMonitor (live): a monitor of a missing page shows a failed check with the upstream error',
    operation: getMonitor,
    method: 'GET',
    path: getMonitor.path,
    prepare: checkedMonitor({ url: `${CASE_SITE_ORIGIN}/missing`, cadence_minutes: 60 }),
    only: ['server-live'],
    expected: { status: 200, check: ({ body }) => expect(body.data.monitor.last_check).toMatchObject({ outcome: 'failed', error: { code: 'upstream_not_found' } }) },
  },
  {
    name: 'createMonitor (live): mode search needs a search provider, and answers 503 uncharged',
    operation: createMonitor,
    method: 'POST',
    path: createMonitor.path,
    body: { url: `${CASE_SITE_ORIGIN}/pricing`, mode: 'search', query: 'planner pricing' },
    only: ['server-live'],
    expected: { status: 503, code: 'capability_unavailable', messageIncludes: ['mode search'], check: (answer) => expect(answer.body.credits_used).toBe(0) },
  },
];
