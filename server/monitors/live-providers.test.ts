/**
 * Monitors of live keys on live providers: a fake SearXNG and a fake OpenAI-compatible model
 * server on loopback (answering their documented fixtures), routed as `{searchWeb: 'searxng',
 * extractWebData: 'openai'}`. Search checks, upstream failures, the judge's verdicts and failures,
 * and the 503 for a capability no provider offers.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { describeErrors, validatorAt } from '../../contract-tests/contract.ts';
import { createLogger } from '../logger.ts';
import { createOpenAiAdapter, type OpenAiAdapter } from '../providers/openai/index.ts';
import { completion, fixture as modelFixture } from '../providers/openai/fixtures.ts';
import { TEST_LIMITS } from '../providers/search/search-adapter.cases.ts';
import { createSearxngProvider } from '../providers/searxng/index.ts';
import web from '../providers/searxng/fixtures/web.json' with { type: 'json' };
import unresponsive from '../providers/searxng/fixtures/unresponsive.json' with { type: 'json' };
import { html, json, startFakeUpstream, type FakeAnswer, type FakeUpstream } from '../test-support/fake-upstream.ts';
import { startTestServer, type TestServer } from '../test-support/test-server.ts';
import { MonitorScheduler } from './scheduler.ts';

const HOUR = 60 * 60 * 1000;
const QUERY = 'open source vector database benchmarks';
const GOAL = 'A new benchmark of a vector database, or a change in one.';
const WEBHOOK = 'https://hooks.example.com/wsdq';
const validateEvent = validatorAt('/components/schemas/MonitorEvent');

/** The documented SearXNG answer (fixtures/web.json) with the first result's snippet rewritten: the results changed. */
const changedWeb = { ...web, results: web.results.map((result, index) => (index === 0 ? { ...result, content: 'Benchmarks of six vector search engines, Milvus added in November 2026.' } : result)) };

function judgement(meetsGoal: boolean, reason: string): FakeAnswer {
  return json(200, completion({ content: JSON.stringify({ meets_goal: meetsGoal, reason }) }));
}

describe('monitors on live providers (SearXNG and an OpenAI-compatible model on loopback)', () => {
  let searxng: FakeUpstream;
  let model: FakeUpstream;
  let openai: OpenAiAdapter;
  const servers: TestServer[] = [];

  beforeAll(async () => {
    searxng = await startFakeUpstream();
    model = await startFakeUpstream();
    openai = createOpenAiAdapter({ baseUrl: `${model.baseUrl}/v1`, apiKey: null, model: 'llama3.2' }, {
      logger: createLogger('silent'),
      readPage: async () => { throw new Error('a monitor check reads no page through the model'); },
    });
  });
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });
  afterAll(async () => {
    await openai.close();
    await Promise.all([searxng.close(), model.close()]);
  });

  /** A test server whose live keys have `routes` to the fakes, with a scheduler ticked by hand. */
  async function liveServer(routes: { searchWeb?: 'searxng'; extractWebData?: 'openai' } = { searchWeb: 'searxng', extractWebData: 'openai' }) {
    const search = createSearxngProvider({ url: searxng.baseUrl }, { logger: createLogger('silent'), readPage: async (url) => ({ url, markdown: '' }), limits: TEST_LIMITS });
    const server = await startTestServer({ providers: { searxng: search, openai: openai.provider }, routes });
    servers.push(server);
    searxng.requests.length = 0;
    model.requests.length = 0;
    const { secret, id: keyId } = await server.key({ sandbox: false });
    return {
      server,
      secret,
      scheduler: new MonitorScheduler(server.stores, server.clock, server.providers, server.metrics),
      create: (body: Record<string, unknown>) => server.call('/web/monitors', { method: 'POST', key: secret, body }),
      get: async (id: string) => (await server.call(`/web/monitors/${id}`, { key: secret })).body.data.monitor,
      events: async () => (await server.stores.webhooks.forKey(keyId)).map((message) => ({ type: message.eventType, payload: JSON.parse(String(message.payload)) })),
    };
  }

  /** Creates an hourly search monitor, runs its baseline on `web.json`, then one more check an hour later on `next`. */
  async function baselineThen(next: FakeAnswer, monitor: Record<string, unknown> = {}) {
    const live = await liveServer();
    const created = await live.create({ url: 'https://example.com/vector-db', mode: 'search', query: QUERY, webhook_url: WEBHOOK, ...monitor });
    expect(created.status).toBe(200);
    const id = created.body.data.monitor.id as string;
    searxng.answer = json(200, web);
    await live.scheduler.tick();
    expect((await live.get(id)).last_check).toMatchObject({ outcome: 'baseline', status_code: null, diff: null, judgement: null, error: null });
    searxng.answer = next;
    live.server.clock.advance(HOUR);
    await live.scheduler.tick();
    return { ...live, id, check: (await live.get(id)).last_check };
  }

  it('a search monitor searches its query on SearXNG and compares the results, snippets included (it listed titles and URLs only before)', async () => {
    const { server, id } = await baselineThen(json(200, web));
    expect(searxng.requests.map((request) => Object.fromEntries(new URL(request.url, 'http://x').searchParams))[0]).toEqual({ q: QUERY, format: 'json', categories: 'general' });
    expect((await server.stores.monitors.lastContent(id))!.split('\n').slice(0, 3)).toEqual([
      '- [Vector Database Benchmarks - Qdrant](https://qdrant.tech/benchmarks/): Open-source benchmarks of vector search engines: upload time, search speed and precision on standard datasets.',
      '- [erikbern/ann-benchmarks: Benchmarks of approximate nearest neighbor libraries](https://github.com/erikbern/ann-benchmarks): Benchmarks of approximate nearest neighbor libraries in Python.',
      '- [pgvector vs Milvus at 10 million vectors](https://example-dev-blog.com/posts/pgvector-vs-milvus)',
    ]);
  });

  it('a search monitor whose results changed stores a diff of them and sends monitor.changed', async () => {
    const { check, events } = await baselineThen(json(200, changedWeb));
    expect(check).toMatchObject({ outcome: 'changed', status_code: null, judgement: null, error: null });
    expect(check.diff).toContain('--- previous\n+++ current');
    expect(check.diff).toMatch(/^-- \[Vector Database Benchmarks - Qdrant\]\(https:\/\/qdrant\.tech\/benchmarks\/\): Open-source benchmarks/m);
    expect(check.diff).toMatch(/^\+- \[Vector Database Benchmarks - Qdrant\]\(https:\/\/qdrant\.tech\/benchmarks\/\): Benchmarks of six vector search engines/m);
    const sent = await events();
    expect(sent.map((event) => event.type)).toEqual(['monitor.changed']);
    expect(sent[0]!.payload.data.check).toEqual(check);
    expect(describeErrors(validateEvent(sent[0]!.payload) ? [] : validateEvent.errors)).toEqual([]);
  });

  it.each([
    { name: 'SearXNG answering 500', answer: json(500, '<h1>Internal Server Error</h1>'), message: 'SearXNG answered 500' },
    { name: 'SearXNG answering no results because its engines did not respond (not an empty "no results" check)', answer: json(200, unresponsive), message: 'its engines did not respond: google (timeout)' },
    { name: 'SearXNG answering HTML with 200', answer: html(), message: 'SearXNG answered' },
  ])('$name is a failed check with upstream_failed and sends monitor.check_failed', async ({ answer, message }) => {
    const { check, events, server } = await baselineThen(answer);
    expect(check).toMatchObject({ outcome: 'failed', status_code: null, diff: null, judgement: null, error: { code: 'upstream_failed' } });
    expect(check.error.message).toContain(message);
    expect((await events()).map((event) => event.type)).toEqual(['monitor.check_failed']);
    expect(await server.metrics.registry.getSingleMetricAsString('wsdq_upstream_errors_total')).toContain('provider="searxng",code="upstream_failed"} 1');
  });

  it('after a failed check, the next one compares with the last successful check', async () => {
    const { scheduler, server, get, id } = await baselineThen(json(500, {}));
    searxng.answer = json(200, web);
    server.clock.advance(HOUR);
    await scheduler.tick();
    expect((await get(id)).last_check).toMatchObject({ outcome: 'unchanged', diff: null, error: null });
  });

  it('with judge_enabled, the model reads the goal and the diff; meets_goal true is recorded in the check and in its monitor.changed event', async () => {
    model.answer = judgement(true, 'The Qdrant benchmark now covers six engines, Milvus added.');
    const { check, events } = await baselineThen(json(200, changedWeb), { goal: GOAL, judge_enabled: true });
    expect(check).toMatchObject({ outcome: 'changed', judgement: { meets_goal: true, reason: 'The Qdrant benchmark now covers six engines, Milvus added.' }, error: null });
    expect(model.requests).toHaveLength(1);
    const asked = (model.requests[0]!.body as any).messages[1].content as string;
    expect(asked).toContain(`Goal: ${GOAL}`);
    expect(asked).toContain(check.diff);
    expect((await events()).map((event) => [event.type, event.payload.data.check.judgement])).toEqual([['monitor.changed', check.judgement]]);
  });

  it('a judge finding that the change does not meet the goal records its judgement and sends no monitor.changed (every change sent one before)', async () => {
    model.answer = judgement(false, 'Only the wording of a snippet changed.');
    const { check, events } = await baselineThen(json(200, changedWeb), { goal: GOAL, judge_enabled: true });
    expect(check).toMatchObject({ outcome: 'changed', judgement: { meets_goal: false, reason: 'Only the wording of a snippet changed.' }, error: null });
    expect(check.diff).toContain('+++ current');
    expect(await events()).toEqual([]);
  });

  it.each([
    { name: 'a model answering 500', answer: json(500, modelFixture('error-server.json')), code: 'upstream_failed' },
    { name: 'a model answering a judgement without reason', answer: json(200, completion({ content: '{"meets_goal":true}' })), code: 'upstream_failed' },
    { name: 'a model refusing the operator\'s key', answer: json(401, modelFixture('error-invalid-api-key.json')), code: 'provider_unavailable' },
  ])('$name leaves the change recorded with the judge\'s error and sends monitor.changed (it recorded a failed check before)', async ({ answer, code }) => {
    model.answer = answer;
    const { check, events, server } = await baselineThen(json(200, changedWeb), { goal: GOAL, judge_enabled: true });
    expect(check).toMatchObject({ outcome: 'changed', judgement: null, error: { code } });
    expect(check.diff).toContain('+++ current');
    expect(check.error.message).toMatch(/^The judge gave no verdict on this change: /);
    expect((await events()).map((event) => event.type)).toEqual(['monitor.changed']);
    expect(await server.metrics.registry.getSingleMetricAsString('wsdq_upstream_errors_total')).toContain(`provider="openai",code="${code}"} 1`);
  });

  it('the judge is not asked about a baseline or an unchanged check', async () => {
    model.answer = judgement(true, 'unused');
    const { check } = await baselineThen(json(200, web), { goal: GOAL, judge_enabled: true });
    expect(check).toMatchObject({ outcome: 'unchanged', judgement: null, error: null });
    expect(model.requests).toEqual([]);
  });

  describe('creating and updating a live key\'s monitor that needs a search provider or a judge', () => {
    const SEARCH = { url: 'https://example.com/vector-db', mode: 'search', query: QUERY };
    const JUDGED = { url: 'https://example.com/pricing', goal: GOAL, judge_enabled: true };

    const BOTH = { searchWeb: 'searxng', extractWebData: 'openai' } as const;

    it.each([
      { name: 'mode search with SearXNG routed is created', routes: BOTH, body: SEARCH, status: 200 },
      { name: 'judge_enabled with the model routed is created', routes: BOTH, body: JUDGED, status: 200 },
      { name: 'mode search with judge_enabled, both routed, is created', routes: BOTH, body: { ...SEARCH, goal: GOAL, judge_enabled: true }, status: 200 },
      { name: 'mode search without a search provider is 503 capability_unavailable', routes: {}, body: SEARCH, status: 503, message: 'Monitors in mode search need a search provider, and none is configured; no credits were used.' },
      { name: 'judge_enabled without a judge is 503 capability_unavailable', routes: {}, body: JUDGED, status: 503, message: 'judge_enabled needs a judge provider, and none is configured; no credits were used.' },
      { name: 'mode search with judge_enabled and only SearXNG routed is 503 naming the judge', routes: { searchWeb: 'searxng' } as const, body: { ...SEARCH, goal: GOAL, judge_enabled: true }, status: 503, message: 'judge_enabled needs a judge provider' },
      { name: 'mode search with judge_enabled and only the model routed is 503 naming the search', routes: { extractWebData: 'openai' } as const, body: { ...SEARCH, goal: GOAL, judge_enabled: true }, status: 503, message: 'Monitors in mode search need a search provider' },
    ])('$name', async ({ routes, body, status, message }) => {
      const live = await liveServer(routes);
      const answer = await live.create(body);
      expect(answer.status).toBe(status);
      if (message) {
        expect([answer.body.error.code, answer.body.credits_used]).toEqual(['capability_unavailable', 0]);
        expect(answer.body.error.message).toContain(message);
      } else {
        expect(answer.body.data.monitor).toMatchObject(body);
      }
    });

    it.each([
      { name: 'with the model routed, an update setting judge_enabled is saved', routes: BOTH, status: 200 },
      { name: 'without a judge, an update setting judge_enabled is 503 capability_unavailable', routes: {}, status: 503 },
    ])('$name', async ({ routes, status }) => {
      const live = await liveServer(routes);
      const id = (await live.create({ url: 'https://example.com/pricing', goal: GOAL })).body.data.monitor.id;
      const answer = await live.server.call(`/web/monitors/${id}`, { method: 'PATCH', key: live.secret, body: { judge_enabled: true } });
      expect(answer.status).toBe(status);
      if (status === 503) expect([answer.body.error.code, answer.body.credits_used]).toEqual(['capability_unavailable', 0]);
      else expect(answer.body.data.monitor.judge_enabled).toBe(true);
    });
  });
});
