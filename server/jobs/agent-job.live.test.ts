/**
 * Live agent jobs on the job runner: the `openai` adapter's agent against a fake model server on
 * loopback (its answers scripted per call), reading the local test site through the web provider
 * under the address policy: answer, page budget, model failures (refunded), cancel, resume.
 */
import type { IncomingMessage } from 'node:http';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { describeErrors, validatorAt } from '../../contract-tests/contract.ts';
import { createLogger } from '../logger.ts';
import { createOpenAiAdapter, type OpenAiAdapter } from '../providers/openai/index.ts';
import { completion, fixture } from '../providers/openai/fixtures.ts';
import { ProviderRegistry } from '../providers/registry.ts';
import { sandboxProvider } from '../providers/sandbox/index.ts';
import { json, startFakeUpstream, type FakeAnswer, type FakeUpstream, type RecordedRequest } from '../test-support/fake-upstream.ts';
import { startTestServer, type TestServer } from '../test-support/test-server.ts';
import { startTestSite, type TestSite } from '../test-support/test-site.ts';
import { testWebProvider } from '../test-support/web-provider.ts';
import type { AgentProgress } from './agent-job.ts';
import { JobRunner } from './job-runner.ts';

const PROMPT = 'What does the Team plan cost per month? Return a JSON object with plan and monthly_usd.';

/** The model's step answers, as the fake model server sends them. */
const open = (url: string) => json(200, completion({ content: JSON.stringify({ action: 'open', url, text: null, data_json: null }) }));
const answer = (text: string, data: Record<string, unknown> | null = null) => json(200, completion({ content: JSON.stringify({ action: 'answer', url: null, text, data_json: data === null ? null : JSON.stringify(data) }) }));
/** Answers each call with the next of `answers` (the last one again once they run out). */
function inTurn(...answers: FakeAnswer[]): FakeAnswer {
  let calls = 0;
  return (request, response) => answers[Math.min(calls++, answers.length - 1)]!(request, response);
}
/** Runs `before` (while the model call is in flight), then answers with `then`. */
function after(before: () => Promise<unknown> | unknown, then: FakeAnswer): FakeAnswer {
  return async (request, response) => {
    await before();
    await then(request, response);
  };
}
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What the model was shown in a call: the user message. */
const shown = (request: RecordedRequest) => String((request.body as { messages: { content: string }[] }).messages[1]!.content);
const offered = (request: RecordedRequest) => (request.body as any).response_format.json_schema.schema.properties.action.enum as string[];

describe('live agent jobs', () => {
  let site: TestSite;
  let model: FakeUpstream;
  let adapter: OpenAiAdapter;
  let server: TestServer;
  let runner: JobRunner;
  /** The paths the test site was asked for, in order. */
  let fetched: string[] = [];

  beforeAll(async () => {
    site = await startTestSite();
    site.server.on('request', (request: IncomingMessage) => fetched.push(request.url ?? ''));
    model = await startFakeUpstream();
    adapter = createOpenAiAdapter({ baseUrl: `${model.baseUrl}/v1`, apiKey: null, model: 'llama3.2' }, {
      logger: createLogger('silent'),
      readPage: async () => {
        throw new Error('the agent reads its pages through the job runner, not readPage');
      },
    });
    server = await startTestServer({ allowPrivateNetwork: true, web: {}, providers: { openai: adapter.provider }, routes: { runWebAgent: 'openai' } });
    runner = new JobRunner(server.stores, server.clock, server.providers);
  });
  afterAll(async () => {
    await server.close();
    await adapter.close();
    await model.close();
    await site.close();
  });
  beforeEach(() => {
    model.requests.length = 0;
    fetched = [];
  });

  /** The key's ledger rows after the top-up that created it. */
  const spending = async (keyId: string) => (await server.stores.ledger.entries(keyId)).filter((entry) => entry.kind !== 'top_up').map(({ kind, amount, operationId, jobId, requestId }) => ({ kind, amount, operationId, jobId, requestId }));

  async function submit(body: Record<string, unknown> = {}) {
    const { secret, id } = await server.key({ credits: 100, sandbox: false });
    const submitted = await server.call('/web/agent', { method: 'POST', key: secret, body: { url: `${site.origin}/`, prompt: PROMPT, ...body } });
    expect([submitted.status, submitted.body.credits_used]).toEqual([200, 25]);
    return { secret, keyId: id, jobId: submitted.body.data.job.id as string, requestId: submitted.body.request_id as string };
  }

  async function jobOf(secret: string, jobId: string) {
    const { job, pages } = (await server.call(`/web/jobs/${jobId}`, { key: secret })).body.data;
    const validate = validatorAt('/components/schemas/Job');
    expect(describeErrors(validate(job) ? [] : validate.errors)).toEqual([]);
    expect(pages).toEqual([]);
    return job;
  }

  const reads = async (jobId: string) => (await server.stores.jobs.progress<AgentProgress>(jobId))!.reads;

  it('opens the start URL, then the page the model opens, and completes with its text, data and the pages read as sources, for 25 credits', async () => {
    model.answer = inTurn(open(`${site.origin}/pricing`), answer('The Team plan costs $49 per month.', { plan: 'Team', monthly_usd: 49 }));
    const { secret, keyId, jobId, requestId } = await submit();
    await runner.work(keyId, jobId);

    expect(fetched).toEqual(['/', '/pricing']);
    expect(model.requests).toHaveLength(2);
    expect(shown(model.requests[0]!)).toContain(`Question: ${PROMPT}`);
    expect(shown(model.requests[0]!)).toContain('You may open 4 more pages.');
    expect(shown(model.requests[0]!)).toContain(`[Pricing](${site.origin}/pricing)`);
    expect(shown(model.requests[1]!)).toContain('You may open 3 more pages.');
    expect(shown(model.requests[1]!)).toContain('| Team | $49 |');
    const job = await jobOf(secret, jobId);
    expect(job).toMatchObject({ kind: 'agent', status: 'completed', credits_used: 25, pages_total: 0, error: null });
    expect(job.answer).toEqual({ text: 'The Team plan costs $49 per month.', data: { plan: 'Team', monthly_usd: 49 }, sources: [`${site.origin}/`, `${site.origin}/pricing`] });
    expect(await server.stores.ledger.balance(keyId)).toBe(75);
    expect(await spending(keyId)).toEqual([{ kind: 'charge', amount: -25, operationId: 'runWebAgent', jobId: null, requestId }]);
  });

  it.each([
    { model: 'spark-1-mini', pagesLeft: 4 },
    { model: 'spark-1-pro', pagesLeft: 14 },
  ])('a $model job may open $pagesLeft pages after its start page', async ({ model: name, pagesLeft }) => {
    model.answer = answer('Done.');
    const { keyId, jobId } = await submit({ model: name });
    await runner.work(keyId, jobId);
    expect(shown(model.requests[0]!)).toContain(`You may open ${pagesLeft} more pages.`);
  });

  it('once its page budget is spent the model is offered only answer, and the job completes with what it read', async () => {
    const pages = ['/pricing', '/docs/', '/docs/start', '/docs/api', '/docs/guide'];
    model.answer = (request, response) => (offered(request).includes('open') ? open(`${site.origin}${pages[model.requests.length - 1]}`) : answer('Enough read.'))(request, response);
    const { secret, keyId, jobId } = await submit();
    await runner.work(keyId, jobId);

    expect(model.requests.map(offered)).toEqual([['open', 'answer'], ['open', 'answer'], ['open', 'answer'], ['open', 'answer'], ['answer']]);
    expect(shown(model.requests[4]!)).toContain('You may open no more pages: answer now.');
    expect(fetched).toEqual(['/', '/pricing', '/docs/', '/docs/start', '/docs/api']);
    const job = await jobOf(secret, jobId);
    expect(job).toMatchObject({ status: 'completed', credits_used: 25 });
    expect(job.answer.sources).toEqual(['/', '/pricing', '/docs/', '/docs/start', '/docs/api'].map((path) => `${site.origin}${path}`));
  });

  it.each([
    { failure: 'a 500', reply: json(500, fixture('error-server.json')), code: 'upstream_failed', message: /answered 500/ },
    { failure: 'a refusal', reply: json(200, fixture('refusal.json')), code: 'upstream_failed', message: /^The language model refused to answer/ },
    { failure: 'a 429', reply: json(429, fixture('error-rate-limit.json'), { 'retry-after': '20' }), code: 'upstream_rate_limited', message: /throttles this service \(it answered 429\); retry in 20 seconds/ },
  ])('a model that fails mid-way ($failure) ends the job failed with its error, and the 25 credits are refunded (a failed agent run used to keep them)', async ({ reply, code, message }) => {
    model.answer = inTurn(open(`${site.origin}/pricing`), reply);
    const { secret, keyId, jobId, requestId } = await submit();
    await runner.work(keyId, jobId);

    expect(model.requests).toHaveLength(2);
    const job = await jobOf(secret, jobId);
    expect(job).toMatchObject({ status: 'failed', credits_used: 0, answer: null, error: { code } });
    expect(job.error.message).toMatch(message);
    expect(job.completed_at).not.toBeNull();
    expect(await server.stores.ledger.balance(keyId)).toBe(100);
    expect(await spending(keyId)).toEqual([
      { kind: 'charge', amount: -25, operationId: 'runWebAgent', jobId: null, requestId },
      { kind: 'refund', amount: 25, operationId: 'runWebAgent', jobId, requestId },
    ]);
    // Agent jobs send no webhook events (the contract's decision): the refund is the whole of the failure's trace.
    expect(await server.stores.webhooks.forKey(keyId)).toEqual([]);
  });

  it('a page the address policy refuses is recorded as a failed read, never fetched, and the agent goes on', async () => {
    const refused = `http://user:secret@127.0.0.1:${new URL(site.origin).port}/pricing`;
    model.answer = inTurn(open(refused), answer('The pricing page could not be read.'));
    const { secret, keyId, jobId } = await submit();
    await runner.work(keyId, jobId);

    expect(fetched).toEqual(['/']);
    expect(shown(model.requests[1]!)).toContain('[This page could not be read (url_not_allowed): url may not carry credentials.]');
    expect((await reads(jobId))[1]).toEqual({ url: refused, error: { code: 'url_not_allowed', message: 'url may not carry credentials.' } });
    const job = await jobOf(secret, jobId);
    expect(job).toMatchObject({ status: 'completed', credits_used: 25 });
    expect(job.answer.sources).toEqual([`${site.origin}/`]);
  });

  it('a start page the address policy refuses ends the job failed with url_not_allowed, refunded, without a fetch or a model call', async () => {
    const closed = testWebProvider({ policy: { allowPrivateNetwork: false } });
    try {
      const strict = new JobRunner(server.stores, server.clock, new ProviderRegistry({ runWebAgent: 'openai', scrapeWebPage: 'web' }, { openai: adapter.provider, web: closed }, sandboxProvider));
      const { secret, keyId, jobId } = await submit();
      await strict.work(keyId, jobId);

      expect([fetched, model.requests]).toEqual([[], []]);
      const job = await jobOf(secret, jobId);
      expect(job).toMatchObject({ status: 'failed', credits_used: 0, error: { code: 'url_not_allowed', message: `The start page ${site.origin}/ could not be read, so the agent had nothing to answer from: url targets a non-public address (127.0.0.1): only public addresses may be fetched.` } });
      expect(await server.stores.ledger.balance(keyId)).toBe(100);
    } finally {
      await closed.close();
    }
  });

  it('a job cancelled while the model thinks stops: the call is abandoned, no page more is fetched, and it keeps its 25 credits', async () => {
    let cancel!: () => Promise<unknown>;
    model.answer = inTurn(after(async () => {
      await cancel();
      await pause(1000);
    }, open(`${site.origin}/pricing`)), answer('Never asked.'));
    const { secret, keyId, jobId } = await submit();
    cancel = () => server.call(`/web/jobs/${jobId}`, { method: 'DELETE', key: secret });
    await runner.work(keyId, jobId);

    expect(model.requests).toHaveLength(1);
    expect(fetched).toEqual(['/']);
    expect((await reads(jobId)).map((read) => read.url)).toEqual([`${site.origin}/`]);
    const job = await jobOf(secret, jobId);
    expect(job).toMatchObject({ status: 'cancelled', credits_used: 25, answer: null });
    expect(await server.stores.ledger.balance(keyId)).toBe(75);
  });

  describe('a runner that stops mid-job', () => {
    let stopping: JobRunner;
    afterEach(() => stopping.stop());

    it('leaves the job running at its last saved step, and a new runner on the same stores resumes it without reading a saved page again', async () => {
      stopping = new JobRunner(server.stores, server.clock, server.providers);
      model.answer = inTurn(
        open(`${site.origin}/pricing`),
        after(async () => {
          stopping.stop();
          await pause(1000);
        }, answer('Lost with the stopped runner.')),
        answer('The Team plan costs $49 per month.'),
      );
      const { secret, keyId, jobId } = await submit();
      await stopping.work(keyId, jobId);
      expect((await jobOf(secret, jobId)).status).toBe('running');
      expect((await reads(jobId)).map((read) => read.url)).toEqual([`${site.origin}/`, `${site.origin}/pricing`]);

      const restarted = new JobRunner(server.stores, server.clock, server.providers);
      await restarted.work(keyId, jobId);
      expect(fetched).toEqual(['/', '/pricing']);
      expect(model.requests).toHaveLength(3);
      expect(shown(model.requests[2]!)).toContain('| Team | $49 |');
      expect(shown(model.requests[2]!)).toContain('You may open 3 more pages.');
      const job = await jobOf(secret, jobId);
      expect(job).toMatchObject({ status: 'completed', credits_used: 25 });
      expect(job.answer).toEqual({ text: 'The Team plan costs $49 per month.', data: null, sources: [`${site.origin}/`, `${site.origin}/pricing`] });
    });
  });
});
