/**
 * Agent jobs on the job runner with scripted agents (no model): what the runner does with a move
 * it cannot take, and sandbox agent jobs, which step through the same code as live ones.
 */
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { agentFailedUnexpectedly, agentOverBudget } from '../../lib/error-messages.ts';
import { sandboxProvider } from '../providers/sandbox/index.ts';
import { sandboxAgentAnswer, sandboxAgentPlan } from '../providers/sandbox/web.ts';
import { ProviderRegistry } from '../providers/registry.ts';
import type { DataProvider, WebAgent } from '../providers/types.ts';
import { startTestServer, type TestServer } from '../test-support/test-server.ts';
import type { AgentProgress } from './agent-job.ts';
import { JobRunner } from './job-runner.ts';
import { DEFAULT_LEASE_MS } from '../held-lease.ts';

const scripted = (step: WebAgent['step']): DataProvider => ({ name: 'scripted', fetch: async () => ({}), agent: { step } });

const PROVIDERS: Record<string, DataProvider> = {
  'always-open': scripted(async (state) => ({ action: 'open', url: `https://example.com/page-${state.pagesRead.length}` })),
  exploding: scripted(async () => {
    throw new Error('boom at /srv/secret/agent.ts:42');
  }),
  pages: { name: 'sandbox-pages', fetch: async () => ({}), pages: sandboxProvider.pages! },
};

describe('agent jobs with scripted agents', () => {
  let server: TestServer;
  beforeAll(async () => (server = await startTestServer({ providers: PROVIDERS, routes: { runWebAgent: 'always-open', scrapeWebPage: 'pages' } })));
  afterAll(() => server.close());

  it.each([
    { agent: 'always-open', job: 'an agent that asks to open a page once its budget is spent', message: agentOverBudget(5, 'https://example.com/page-5'), reads: 5 },
    { agent: 'exploding', job: 'an agent that throws an error of its own (used to escape the runner, leaving the job running)', message: agentFailedUnexpectedly(), reads: 1 },
  ])('$job ends the job failed with upstream_failed, refunded', async ({ agent, message, reads }) => {
    const runner = new JobRunner(server.stores, server.clock, new ProviderRegistry({ runWebAgent: agent, scrapeWebPage: 'pages' }, PROVIDERS, sandboxProvider));
    const { secret, id } = await server.key({ credits: 100, sandbox: false });
    const job = (await server.call('/web/agent', { method: 'POST', key: secret, body: { url: 'https://example.com/', prompt: 'Anything?' } })).body.data.job;
    await runner.work(id, job.id);
    const done = (await server.call(`/web/jobs/${job.id}`, { key: secret })).body.data.job;
    expect(done).toMatchObject({ status: 'failed', credits_used: 0, answer: null, error: { code: 'upstream_failed', message } });
    expect((await server.stores.jobs.progress<AgentProgress>(job.id))!.reads).toHaveLength(reads);
    expect(await server.stores.ledger.balance(id)).toBe(100);
  });
});

describe('sandbox agent jobs', () => {
  let server: TestServer;
  beforeAll(async () => (server = await startTestServer()));
  afterAll(() => server.close());

  it.each([
    { model: 'spark-1-mini', pages: 2 },
    { model: 'spark-1-pro', pages: 5 },
  ])('a $model job reads the $pages pages of its plan one per tick, resumes on a new runner, and answers with them as sources', async ({ model, pages }) => {
    const { secret, id } = await server.key({ credits: 100 });
    const request = { url: 'https://example.com/docs/', prompt: 'Return a JSON object with the fields plan and price.', model };
    const job = (await server.call('/web/agent', { method: 'POST', key: secret, body: request })).body.data.job;
    await server.runner.tick();
    await server.runner.tick();
    expect((await server.stores.jobs.progress<AgentProgress>(job.id))!.reads.map((read) => read.url)).toEqual([request.url]);

    // The old runner's process is gone: its lease on the job expires, and the new runner takes the job over.
    server.clock.advance(DEFAULT_LEASE_MS);
    const restarted = new JobRunner(server.stores, server.clock, server.providers);
    // It holds the completed job until a next tick would release it: stopped, it renews nothing once the database is closed.
    onTestFinished(() => restarted.stop());
    for (let tick = 0; tick < pages; tick++) await restarted.tick();
    const done = (await server.call(`/web/jobs/${job.id}`, { key: secret })).body.data.job;
    expect((await server.stores.jobs.progress<AgentProgress>(job.id))!.reads.map((read) => read.url)).toEqual(sandboxAgentPlan(request.url, model));
    expect(done).toMatchObject({ status: 'completed', credits_used: 25 });
    expect(done.answer).toEqual(sandboxAgentAnswer(request.url, request.prompt, model));
    expect(done.answer.sources).toHaveLength(pages);
    expect(await server.stores.ledger.balance(id)).toBe(75);
  });
});
