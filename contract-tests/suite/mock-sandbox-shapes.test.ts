/**
 * The mock answers every success case of the shared table as the sandbox server does: the same
 * request, sent to both, gets answers of the same shape (see shape.ts for what that means), lists
 * within `limit`, the URL, query and ids echoed where the contract echoes them, a fresh request id
 * per call; and for data operations the very same `data`, since both answer from the sandbox
 * provider. Runs when the global setup started both the `mock` and the `server` targets.
 */
import { describe, expect, inject, it } from 'vitest';
import type { OperationId } from '../../generated/operations.ts';
import { contractCases, type ContractCase } from './cases.ts';
import { sendCase } from './send-case.ts';
import { shapeDifferences, valueAt, type ShapeRules } from './shape.ts';
import type { Call } from './valid-requests.ts';

type Target = ReturnType<typeof inject<'targets'>>[number];

interface Sent {
  query: Record<string, string>;
  body: Record<string, any>;
  params: Record<string, string>;
}

/** Fields of `data` the contract fills from the request, and where in the request. */
const ECHOES: Partial<Record<OperationId, Record<string, (sent: Sent) => unknown>>> = {
  scrapeWebPage: { url: ({ query }) => query.url },
  searchWeb: { query: ({ query }) => query.query },
  mapWebsite: { url: ({ query }) => query.url },
  extractWebData: { url: ({ query }) => query.url },
  listCollectionVideos: { 'collection.id': ({ query }) => query.collection_id },
  getPriceHistory: { symbol: ({ query }) => query.symbol, interval: ({ query }) => query.interval ?? '1d' },
  getMicroblogPost: { 'post.id': ({ query }) => query.post_id },
  listSocialEvents: { source_url: ({ query }) => query.url },
  crawlWebsite: { 'job.url': ({ body }) => body.url, 'job.status': () => 'queued' },
  batchScrapeWebPages: { 'job.status': () => 'queued', 'job.pages_total': ({ body }) => new Set(body.urls).size },
  runWebAgent: { 'job.url': ({ body }) => body.url, 'job.status': () => 'queued' },
  getJob: { 'job.id': ({ params }) => params.job_id },
  deleteJob: { 'job.id': ({ params }) => params.job_id },
  createMonitor: { 'monitor.url': ({ body }) => body.url, 'monitor.name': ({ body }) => body.name ?? body.url },
  getMonitor: { 'monitor.id': ({ params }) => params.monitor_id },
  updateMonitor: { 'monitor.id': ({ params }) => params.monitor_id, 'monitor.status': ({ body }) => body.status },
  deleteMonitor: { 'monitor.id': ({ params }) => params.monitor_id },
};

/** How far a stored job got, and the settings it was submitted with, which a stateless mock cannot know from its id. */
const JOB_STATE = ['started_at', 'completed_at', 'pages_total', 'error', 'answer', 'webhook_url'];
/** A stored monitor's own settings and checks, which a stateless mock cannot know from its id. */
const MONITOR_STATE = ['cadence_minutes', 'schedule_text', 'schedule_cron', 'webhook_url', 'query', 'goal', 'next_check_at', 'last_check'];
const CHECK_OUTCOME = ['status_code', 'diff', 'judgement', 'error'].map((field) => `last_check.${field}`);
const under = (prefix: string, fields: string[]): string[] => fields.map((field) => `${prefix}${field}`);

/** State outside the request: how far a job got, what a monitor holds, what else the key stored. */
const STATE: Partial<Record<OperationId, ShapeRules>> = {
  getJob: { loose: [...under('job.', JOB_STATE), 'next_cursor'], skipped: ['pages'] },
  deleteJob: { loose: under('job.', JOB_STATE) },
  listJobs: { loose: [...under('jobs[].', [...JOB_STATE, 'url']), 'next_cursor'] },
  getMonitor: { loose: under('monitor.', [...MONITOR_STATE, ...CHECK_OUTCOME]) },
  updateMonitor: { loose: under('monitor.', [...MONITOR_STATE, ...CHECK_OUTCOME]) },
  deleteMonitor: { loose: under('monitor.', [...MONITOR_STATE, ...CHECK_OUTCOME]) },
  listMonitors: { loose: [...under('monitors[].', [...MONITOR_STATE, ...CHECK_OUTCOME]), 'next_cursor'] },
};

/** Operations both answer from the sandbox provider: the same request gets the same `data`. */
const SANDBOX_DATA: OperationId[] = ['scrapeWebPage', 'searchWeb', 'mapWebsite', 'extractWebData', 'listCollectionVideos', 'getPriceHistory', 'getMicroblogPost', 'listSocialEvents'];

/** Every success case of the shared table that holds on both targets with their ordinary key. */
const successCases = contractCases.filter((testCase) => testCase.expected.status === 200 && !testCase.only && !testCase.keyRole && !testCase.withoutKey);

function isConnectionReset(error: unknown): boolean {
  return (error as { cause?: { code?: string } }).cause?.code === 'ECONNRESET';
}

/**
 * The case's answer on `target`, its resource prepared first. A keep-alive connection the target
 * closed just as a request went out (seen on a loaded machine) is tried once more, as HTTP clients do.
 */
async function answerOn(target: Target, testCase: ContractCase): ReturnType<typeof answerOnce> {
  try {
    return await answerOnce(target, testCase);
  } catch (error) {
    if (!isConnectionReset(error)) throw error;
    return answerOnce(target, testCase);
  }
}

async function answerOnce(target: Target, testCase: ContractCase) {
  const call: Call = (request) => sendCase(target, { name: 'prepare', operation: null, ...request, expected: { status: 200 } }, {});
  const params = testCase.prepare ? await testCase.prepare(call) : {};
  const answer = await sendCase(target, testCase, params);
  return { answer, sent: { query: testCase.query ?? {}, body: (testCase.body ?? {}) as Record<string, any>, params } };
}

/** The lists in `data` that a `limit` bounds, and their bound. */
function listsOverLimit(operationId: OperationId, data: Record<string, any>, query: Record<string, string>): string[] {
  if (query.limit === undefined) return [];
  const perSource = operationId === 'searchWeb' ? (query.sources ?? 'web').split(',').length : 1;
  const bound = Number(query.limit) * perSource;
  return Object.entries(data).filter(([, value]) => Array.isArray(value) && value.length > bound).map(([name, value]) => `${name} has ${value.length} items, over limit ${bound}`);
}

const targets = inject('targets');
const mock = targets.find((target) => target.name === 'mock');
const server = targets.find((target) => target.name === 'server');

describe.runIf(mock && server)('the mock answers as the sandbox server does', () => {
  it.concurrent.for(successCases)('$name', async (testCase, { expect }) => {
    const operationId = testCase.operation!.operationId as OperationId;
    const [fromMock, fromServer] = await Promise.all([answerOn(mock!, testCase), answerOn(server!, testCase)]);
    const context = `mock: ${JSON.stringify(fromMock.answer.body).slice(0, 600)}\nserver: ${JSON.stringify(fromServer.answer.body).slice(0, 600)}`;
    expect([fromMock.answer.status, fromServer.answer.status], context).toEqual([200, 200]);

    const mockData = fromMock.answer.body.data;
    const serverData = fromServer.answer.body.data;
    expect(shapeDifferences(mockData, serverData, STATE[operationId]), context).toEqual([]);
    for (const { answer, sent } of [fromMock, fromServer]) {
      expect(listsOverLimit(operationId, answer.body.data, sent.query), context).toEqual([]);
      for (const [path, echoed] of Object.entries(ECHOES[operationId] ?? {})) expect(valueAt(answer.body.data, path), `${path} echoes the request`).toEqual(echoed(sent));
    }
    if (SANDBOX_DATA.includes(operationId)) expect(mockData, context).toEqual(serverData);
  });
});

describe.runIf(mock)('the mock identifies every answer', () => {
  it('every call has a fresh request id, in the body and X-Request-Id (the example\'s id on every call, before)', async () => {
    const url = `${mock!.baseUrl}/web/jobs`;
    const answers = await Promise.all([1, 2, 3].map(() => fetch(url, { headers: { 'x-api-key': mock!.apiKey } })));
    const ids = await Promise.all(answers.map(async (answer) => [(await answer.json()).request_id, answer.headers.get('x-request-id')]));
    for (const [bodyId, headerId] of ids) {
      expect(bodyId).toMatch(/^req_[0-9A-HJKMNP-TV-Z]{26}$/);
      expect(headerId).toBe(bodyId);
    }
    expect(new Set(ids.map(([bodyId]) => bodyId)).size).toBe(3);
  });
});

describe.runIf(mock && server)('the mock fails as the sandbox server does', () => {
  const magicInputs = [
    { path: '/web/scrape', query: 'url=https://fail-404.sandbox.test/page' },
    { path: '/web/map', query: 'url=https://fail-504.sandbox.test/' },
    { path: '/finance/history', query: 'symbol=FAIL502' },
    { path: '/web/extract', query: 'url=https://example.com/pricing' },
  ];
  it.for(magicInputs)('$path?$query answers the same status and error code, uncharged', async ({ path, query }) => {
    const answers = await Promise.all([mock!, server!].map(async (target) => {
      const answer = await fetch(`${target.baseUrl}${path}?${query}`, { headers: { 'x-api-key': target.apiKey } });
      const body = await answer.json();
      return [answer.status, body.error?.code, body.credits_used];
    }));
    expect(answers[0]![0]).toBeGreaterThanOrEqual(400);
    expect(answers[0]).toEqual(answers[1]);
  });
});
