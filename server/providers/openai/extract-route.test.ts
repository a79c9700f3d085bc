/**
 * `GET /v1/web/extract` for a live key routed to the `openai` adapter, through the real app (the
 * contract's validator, credits, envelopes) and the fake model server on loopback.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../logger.ts';
import { json, startFakeUpstream, type FakeUpstream } from '../../test-support/fake-upstream.ts';
import { startTestServer, type TestServer } from '../../test-support/test-server.ts';
import { completion, fixture } from './fixtures.ts';
import { createOpenAiModel, createOpenAiProvider, modelUpstream } from './index.ts';

const PAGE_URL = 'https://www.example-saas.com/pricing';
const SCHEMA = '{"type":"object","properties":{"team_price_usd":{"type":["number","null"]}},"required":["team_price_usd"],"additionalProperties":false}';

describe('web/extract for a live key on the openai adapter', () => {
  let model: FakeUpstream;
  let server: TestServer;
  let closeUpstream: () => Promise<void>;

  beforeAll(async () => {
    model = await startFakeUpstream();
    const config = { baseUrl: `${model.baseUrl}/v1`, apiKey: null, model: 'gpt-4o-mini' };
    const logger = createLogger('silent');
    const upstream = modelUpstream(config, logger);
    closeUpstream = () => upstream.close();
    const provider = createOpenAiProvider(createOpenAiModel(config, { upstream, logger }), {
      readPage: async (url) => ({ markdown: '| Team | $49 per month |', url, title: 'Pricing' }),
    });
    server = await startTestServer({ providers: { openai: provider }, routes: { extractWebData: 'openai' } });
  });
  afterAll(async () => {
    await server.close();
    await closeUpstream();
    await model.close();
  });

  const extract = (key: string) => server.call(`/web/extract?url=${encodeURIComponent(PAGE_URL)}&schema=${encodeURIComponent(SCHEMA)}`, { key });

  it('a live key no longer answers 503: the model\'s data, 5 credits', async () => {
    model.answer = json(200, completion({ content: '{"team_price_usd":49}' }));
    const { secret } = await server.key({ credits: 100, sandbox: false });
    const answer = await extract(secret);
    expect(answer.status).toBe(200);
    expect(answer.body.credits_used).toBe(5);
    expect(answer.body.data.extracted).toEqual({ team_price_usd: 49 });
    expect(answer.body.data.url).toBe(PAGE_URL);
  });

  const failures = [
    { name: 'a refusal', answer: json(200, fixture('refusal.json')), status: 502, code: 'upstream_failed', retryAfter: null },
    { name: 'an answer failing the schema', answer: json(200, completion({ content: '{"team_price_usd":"49"}' })), status: 502, code: 'upstream_failed', retryAfter: null },
    { name: 'a 429 with x-ratelimit-reset-requests', answer: json(429, fixture('error-rate-limit.json'), { 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '20s' }), status: 503, code: 'upstream_rate_limited', retryAfter: '20' },
  ];
  for (const failure of failures) {
    it(`${failure.name}: ${failure.status} ${failure.code} in the envelope, no credits used`, async () => {
      model.answer = failure.answer;
      const { secret } = await server.key({ credits: 100, sandbox: false });
      const answer = await extract(secret);
      expect(answer.status).toBe(failure.status);
      expect(answer.body.success).toBe(false);
      expect(answer.body.error.code).toBe(failure.code);
      expect(answer.body.credits_used).toBe(0);
      expect(answer.headers.get('retry-after')).toBe(failure.retryAfter);
      expect(answer.body.credits_remaining).toBe(100);
      expect(server.logLines.filter((line) => line.msg === 'answer headers do not match the contract')).toEqual([]);
    });
  }
});
