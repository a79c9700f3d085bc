/** The monitor judge and the agent's step on the `openai` adapter, against the fake model server on loopback. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { validatorAt, describeErrors } from '../../../contract-tests/contract.ts';
import { createLogger } from '../../logger.ts';
import { ProviderError } from '../types.ts';
import { json, slow, startFakeUpstream, type FakeUpstream } from '../../test-support/fake-upstream.ts';
import { completion } from './fixtures.ts';
import { agentStepper, changeJudge, createOpenAiModel, modelUpstream, type AgentStep } from './index.ts';
import type { MonitorJudge } from '../types.ts';
import type { UpstreamClient } from '../../upstream/upstream-client.ts';

const DIFF = '--- previous\n+++ current\n@@ -1 +1 @@\n-Team: $49\n+Team: $59\n';
const GOAL = 'A change in the price of any plan.';
const never = new AbortController().signal;

async function failureOf(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(() => undefined, (caught: unknown) => caught);
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}

describe('the judge and the agent on an OpenAI-compatible model server', () => {
  let server: FakeUpstream;
  let upstream: UpstreamClient;
  let judge: MonitorJudge;
  let agentStep: AgentStep;

  beforeAll(async () => {
    server = await startFakeUpstream();
    const config = { baseUrl: `${server.baseUrl}/v1`, apiKey: null, model: 'llama3.2' };
    const logger = createLogger('silent');
    upstream = modelUpstream(config, logger, { timeoutMs: 2000 });
    const model = createOpenAiModel(config, { upstream, logger });
    judge = changeJudge(model);
    agentStep = agentStepper(model);
  });
  afterAll(async () => {
    await upstream.close();
    await server.close();
  });
  beforeEach(() => {
    server.requests.length = 0;
  });

  it('the judge posts a strict json_schema of meets_goal and reason with the goal and the diff, and answers a MonitorCheckJudgement', async () => {
    server.answer = json(200, completion({ content: '{"meets_goal":true,"reason":"The Team plan rose from $49 to $59."}' }));
    const judgement = await judge.judge({ goal: GOAL, diff: DIFF, url: 'https://www.example-saas.com/pricing', signal: never });

    const body = server.requests[0]!.body as any;
    expect(body.model).toBe('llama3.2');
    expect(body.response_format).toEqual({
      type: 'json_schema',
      json_schema: {
        name: 'monitor_judgement',
        strict: true,
        schema: {
          type: 'object',
          properties: { meets_goal: { type: 'boolean', description: expect.any(String) }, reason: { type: 'string', description: expect.any(String) } },
          required: ['meets_goal', 'reason'],
          additionalProperties: false,
        },
      },
    });
    expect(body.messages[1].content).toContain(`Goal: ${GOAL}`);
    expect(body.messages[1].content).toContain(DIFF);
    const validate = validatorAt('/components/schemas/MonitorCheckJudgement');
    expect(describeErrors(validate(judgement) ? [] : validate.errors)).toEqual([]);
    expect(judgement).toEqual({ meets_goal: true, reason: 'The Team plan rose from $49 to $59.' });
  });

  it('a judgement without reason is 502 upstream_failed naming what is missing', async () => {
    server.answer = json(200, completion({ content: '{"meets_goal":false}' }));
    const error = await failureOf(judge.judge({ goal: GOAL, diff: DIFF, url: 'https://example.com/', signal: never }));
    expect([error.code, error.message]).toEqual(['upstream_failed', "The language model's answer does not match the schema: (root) must have required property 'reason'."]);
  });

  it('agentStep with pages left posts the question and every page read, and answers open with a URL', async () => {
    server.answer = json(200, completion({ content: '{"action":"open","url":"https://example.com/pricing","text":null,"data_json":null}' }));
    const move = await agentStep({ prompt: 'What does the Team plan cost?', pagesRead: [{ url: 'https://example.com/', markdown: '# Home\n\n[Pricing](https://example.com/pricing)' }], pagesLeft: 3 }, never);

    const body = server.requests[0]!.body as any;
    expect(body.response_format.type).toBe('json_schema');
    expect(body.response_format.json_schema.name).toBe('agent_step');
    expect(body.response_format.json_schema.strict).toBe(true);
    expect(body.response_format.json_schema.schema.properties.action.enum).toEqual(['open', 'answer']);
    expect(body.messages[1].content).toContain('Question: What does the Team plan cost?');
    expect(body.messages[1].content).toContain('You may open 3 more pages.');
    expect(body.messages[1].content).toContain('[Pricing](https://example.com/pricing)');
    expect(move).toEqual({ action: 'open', url: 'https://example.com/pricing' });
  });

  it('agentStep with no pages left allows only answer, and answers text and data', async () => {
    server.answer = json(200, completion({ content: JSON.stringify({ action: 'answer', url: null, text: 'The Team plan costs $49 per month.', data_json: '{"plan":"Team","price_usd":49}' }) }));
    const move = await agentStep({ prompt: 'Return a JSON object with plan and price_usd.', pagesRead: [{ url: 'https://example.com/pricing', markdown: '| Team | $49 |' }], pagesLeft: 0 }, never);
    const body = server.requests[0]!.body as any;
    expect(body.response_format.json_schema.schema.properties.action.enum).toEqual(['answer']);
    expect(body.messages[1].content).toContain('You may open no more pages: answer now.');
    expect(move).toEqual({ action: 'answer', text: 'The Team plan costs $49 per month.', data: { plan: 'Team', price_usd: 49 } });
  });

  it('an answer in prose only has data null', async () => {
    server.answer = json(200, completion({ content: '{"action":"answer","url":null,"text":"$49.","data_json":null}' }));
    expect(await agentStep({ prompt: 'Price?', pagesRead: [{ url: 'https://example.com/', markdown: '$49' }], pagesLeft: 1 }, never)).toEqual({ action: 'answer', text: '$49.', data: null });
  });

  const badSteps = [
    { name: 'open without a URL', content: '{"action":"open","url":null,"text":null,"data_json":null}', message: /^The language model's answer does not match the schema: \/url must be string; .*must match "then" schema/ },
    { name: 'open with a relative URL', content: '{"action":"open","url":"/pricing","text":null,"data_json":null}', message: /^The language model.s answer does not match the schema: \/url must match pattern "\^https\?:\/\/"; \/url must match format "uri"/ },
    { name: 'answer without text', content: '{"action":"answer","url":null,"text":null,"data_json":null}', message: /^The language model's answer does not match the schema: \/text must be string/ },
    { name: 'an action it was not offered', content: '{"action":"search","url":null,"text":null,"data_json":null}', message: /\/action must be equal to one of the allowed values/ },
    { name: 'data_json that is not JSON', content: '{"action":"answer","url":null,"text":"x","data_json":"{plan: Team}"}', message: /^The language model's answer is not JSON: data_json: / },
    { name: 'data_json that is not an object', content: '{"action":"answer","url":null,"text":"x","data_json":"[1]"}', message: /^The language model's answer is an array in data_json, not a JSON object\.$/ },
  ];
  for (const { name, content, message } of badSteps) {
    it(`a step with ${name} is 502 upstream_failed`, async () => {
      server.answer = json(200, completion({ content }));
      const error = await failureOf(agentStep({ prompt: 'Price?', pagesRead: [{ url: 'https://example.com/', markdown: '$49' }], pagesLeft: 2 }, never));
      expect(error.code).toBe('upstream_failed');
      expect(error.message).toMatch(message);
    });
  }

  it('a caller that aborts stops the call with its own reason', async () => {
    server.answer = slow(1000, completion({ content: '{"meets_goal":true,"reason":"x"}' }));
    const controller = new AbortController();
    const pending = judge.judge({ goal: GOAL, diff: DIFF, url: 'https://example.com/', signal: controller.signal });
    setTimeout(() => controller.abort(new Error('job cancelled')), 50);
    await expect(pending).rejects.toThrow('job cancelled');
  });
});
