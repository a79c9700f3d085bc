/**
 * `web/extract` on the `openai` adapter against a fake OpenAI-compatible server on loopback that
 * answers with the Chat Completions API's documented response shapes (fixtures/).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { validatorAt, describeErrors } from '../../../contract-tests/contract.ts';
import { createLogger } from '../../logger.ts';
import { capturingLogger, html, json, oversized, slow, startFakeUpstream, type FakeAnswer, type FakeUpstream } from '../../test-support/fake-upstream.ts';
import { ProviderError, type DataProvider } from '../types.ts';
import { completion, fixture } from './fixtures.ts';
import { createOpenAiModel, createOpenAiProvider, modelUpstream, type ReadPage } from './index.ts';
import type { OpenAiConfig } from './config.ts';

const API_KEY = 'sk-test-do-not-log-0123456789';
const PAGE_MARKDOWN = '# Pricing\n\n| Plan | Price |\n| --- | --- |\n| Starter | $0 |\n| Team | $49 per month |';
const PAGE_URL = 'https://www.example-saas.com/pricing';

/** Strict-compatible: closed, every property required, only supported keywords. */
const STRICT_SCHEMA = {
  type: 'object',
  properties: {
    plans: {
      type: 'array',
      items: {
        type: 'object',
        properties: { name: { type: 'string' }, price_usd: { type: ['number', 'null'], description: 'Monthly price in US dollars' } },
        required: ['name', 'price_usd'],
        additionalProperties: false,
      },
    },
  },
  required: ['plans'],
  additionalProperties: false,
};
const PLANS = { plans: [{ name: 'Starter', price_usd: 0 }, { name: 'Team', price_usd: 49 }] };

interface Harness {
  provider: DataProvider;
  logs: () => string;
  pagesRead: { url: string; options: unknown }[];
  close(): Promise<void>;
}

function harness(server: FakeUpstream, config: Partial<OpenAiConfig> = {}): Harness {
  const { logger, text: logs } = capturingLogger();
  const full: OpenAiConfig = { baseUrl: `${server.baseUrl}/v1`, apiKey: API_KEY, model: 'gpt-4o-mini', ...config };
  const upstream = modelUpstream(full, logger, { timeoutMs: 500, maxResponseBytes: 64 * 1024 });
  const pagesRead: Harness['pagesRead'] = [];
  const readPage: ReadPage = async (url, options) => {
    pagesRead.push({ url, options });
    return { markdown: PAGE_MARKDOWN, url, title: 'Pricing | Example SaaS' };
  };
  const provider = createOpenAiProvider(createOpenAiModel(full, { upstream, logger }), { readPage });
  return { provider, logs, pagesRead, close: () => upstream.close() };
}

function extract(provider: DataProvider, query: Record<string, unknown>) {
  return provider.fetch({ operationId: 'extractWebData', query: { url: PAGE_URL, ...query }, signal: new AbortController().signal });
}

async function failureOf(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(() => undefined, (caught: unknown) => caught);
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}

describe('web/extract on an OpenAI-compatible model server', () => {
  let server: FakeUpstream;
  let h: Harness;
  /** A provider on the fake server, without a key, reading pages with `readPage`. */
  const keyless = (readPage: ReadPage): DataProvider => {
    const config = { baseUrl: `${server.baseUrl}/v1`, apiKey: null, model: 'm' };
    const logger = createLogger('silent');
    return createOpenAiProvider(createOpenAiModel(config, { upstream: modelUpstream(config, logger), logger }), { readPage });
  };

  beforeAll(async () => {
    server = await startFakeUpstream();
    h = harness(server);
  });
  afterAll(async () => {
    await h.close();
    await server.close();
  });
  beforeEach(() => {
    server.requests.length = 0;
    h.pagesRead.length = 0;
  });

  it('with a strict-compatible schema: posts json_schema strict true with the page Markdown, answers the contract data', async () => {
    server.answer = json(200, completion({ content: JSON.stringify(PLANS) }));
    const data = await extract(h.provider, { schema: JSON.stringify(STRICT_SCHEMA) });

    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request!.method).toBe('POST');
    expect(request!.url).toBe('/v1/chat/completions');
    expect(request!.headers.authorization).toBe(`Bearer ${API_KEY}`);
    const body = request!.body as any;
    expect(body.model).toBe('gpt-4o-mini');
    expect(body.response_format).toEqual({ type: 'json_schema', json_schema: { name: 'extracted_data', schema: STRICT_SCHEMA, strict: true } });
    expect(body.messages.map((message: { role: string }) => message.role)).toEqual(['system', 'user']);
    expect(body.messages[1].content).toContain(PAGE_MARKDOWN);
    expect(h.pagesRead).toEqual([{ url: PAGE_URL, options: { onlyMainContent: true, timeoutMs: 30_000, proxy: undefined } }]);

    const validate = validatorAt('/components/schemas/WebExtraction');
    expect(describeErrors(validate(data) ? [] : validate.errors)).toEqual([]);
    expect(data).toEqual({
      url: PAGE_URL,
      extracted: PLANS,
      metadata: { title: 'Pricing | Example SaaS', description: null, language: null, source_url: PAGE_URL, url: PAGE_URL, status_code: 200, content_type: null },
    });
  });

  it('with the contract example schema (objects not closed): strict false, the answer still checked against it', async () => {
    const openSchema = { type: 'object', properties: { plans: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } } }, required: ['plans'] };
    server.answer = json(200, completion({ content: '{"plans":[{"name":"Team"}]}' }));
    const data = await extract(h.provider, { schema: JSON.stringify(openSchema) });
    expect((server.requests[0]!.body as any).response_format.json_schema.strict).toBe(false);
    expect(data.extracted).toEqual({ plans: [{ name: 'Team' }] });
  });

  it('with a prompt: posts json_object with the instruction and the page, passes only_main_content and timeout to the page reader', async () => {
    server.answer = json(200, completion({ content: '{"team_price":"$49 per month"}' }));
    const data = await extract(h.provider, { prompt: 'What does the Team plan cost?', only_main_content: false, timeout: 5000 });
    const body = server.requests[0]!.body as any;
    expect(body.response_format).toEqual({ type: 'json_object' });
    expect(body.messages[1].content).toContain('Instruction: What does the Team plan cost?');
    expect(body.messages[1].content).toContain(PAGE_MARKDOWN);
    // JSON mode needs the word JSON in the messages.
    expect(body.messages[0].content).toContain('JSON');
    expect(h.pagesRead[0]!.options).toEqual({ onlyMainContent: false, timeoutMs: 5000, proxy: undefined });
    expect(data.extracted).toEqual({ team_price: '$49 per month' });
  });

  it('a page over 100000 characters is cut there, with a note saying so', async () => {
    const long = 'x'.repeat(150_000);
    const provider = keyless(async (url) => ({ markdown: long, url }));
    server.answer = json(200, completion({ content: '{"answer":"x"}' }));
    await extract(provider, { prompt: 'What is it?' });
    const content: string = (server.requests[0]!.body as any).messages[1].content;
    expect(content).toContain(`${'x'.repeat(100_000)}\n</page>`);
    expect(content).not.toContain('x'.repeat(100_001));
    expect(content).toContain('[The page is longer: only its first 100000 of 150000 characters are shown.]');
  });

  it('without OPENAI_API_KEY no Authorization header is sent (a local server)', async () => {
    const local = harness(server, { apiKey: null });
    server.answer = json(200, completion({ content: '{"a":1}' }));
    await extract(local.provider, { prompt: 'a?' });
    await local.close();
    expect(server.requests[0]!.headers.authorization).toBeUndefined();
  });

  const invalidRequests = [
    { name: 'both schema and prompt', query: { schema: '{"type":"object"}', prompt: 'x' }, message: 'Give exactly one of `schema` and `prompt`.' },
    { name: 'neither schema nor prompt', query: {}, message: 'Give exactly one of `schema` and `prompt`.' },
    { name: 'a schema that is not JSON', query: { schema: '{type: object}' }, message: '`schema` is not valid JSON.' },
    { name: 'a schema whose root is not an object', query: { schema: '{"type":"array"}' }, message: 'The root of `schema` must be `"type": "object"`.' },
    { name: 'a schema that is not a JSON Schema', query: { schema: '{"type":"object","properties":{"a":{"type":"colour"}}}' }, message: /^`schema` is not a JSON Schema \(draft 2020-12\): / },
  ];
  for (const { name, query, message } of invalidRequests) {
    it(`${name}: 422 invalid_parameters, neither the page nor the model is called`, async () => {
      const error = await failureOf(extract(h.provider, query));
      expect(error.code).toBe('invalid_parameters');
      expect(error.message).toMatch(message);
      expect(h.pagesRead).toEqual([]);
      expect(server.requests).toEqual([]);
    });
  }

  it('a page the reader cannot read fails as the reader says, and the model is not called', async () => {
    const provider = keyless(async () => {
      throw new ProviderError('upstream_not_found', 'The page answered 404.');
    });
    const error = await failureOf(extract(provider, { prompt: 'a?' }));
    expect([error.code, error.message]).toEqual(['upstream_not_found', 'The page answered 404.']);
    expect(server.requests).toEqual([]);
  });

  it('a model server that cannot be reached: 503 provider_unavailable, logged for the operator', async () => {
    const gone = await startFakeUpstream();
    await gone.close();
    const unreachable = harness(gone);
    const error = await failureOf(extract(unreachable.provider, { prompt: 'a?' }));
    await unreachable.close();
    expect([error.code, error.message]).toEqual(['provider_unavailable', 'The language model server cannot be reached; no provider is available until the operator fixes it. No credits were used.']);
    expect(unreachable.logs()).toMatch(/"level":50.*cannot be reached/);
  });

  const failures: { name: string; reply: FakeAnswer; code: string; message: RegExp; headers?: Record<string, string>; logged?: RegExp }[] = [
    { name: 'empty content', reply: json(200, completion({ content: '' })), code: 'upstream_failed', message: /^The language model answered with no content\.$/ },
    { name: 'a refusal (the documented refusal example)', reply: json(200, fixture('refusal.json')), code: 'upstream_failed', message: /^The language model refused to answer: "I'm sorry, I cannot assist with that request\."\.$/ },
    { name: 'finish_reason length (cut off)', reply: json(200, completion({ content: '{"plans":[{"name":"Sta' }, 'length')), code: 'upstream_failed', message: /cut off at its output limit \(finish_reason "length"\)/ },
    { name: 'content that is not JSON', reply: json(200, completion({ content: 'The Team plan costs $49.' })), code: 'upstream_failed', message: /^The language model's answer is not JSON: / },
    { name: 'JSON that is not an object', reply: json(200, completion({ content: '[1,2]' })), code: 'upstream_failed', message: /^The language model's answer is an array, not a JSON object\.$/ },
    { name: 'output failing the schema', reply: json(200, completion({ content: '{"plans":[{"name":"Team","price_usd":"49"}]}' })), code: 'upstream_failed', message: /^The language model's answer does not match the schema: \/plans\/0\/price_usd must be number,null\.$/ },
    { name: 'a 2xx that is not a chat completion', reply: json(200, { object: 'list', data: [] }), code: 'upstream_failed', message: /not a chat completion: it has no choices\[0\]\.message/ },
    { name: '400 (the server rejects the schema)', reply: json(400, fixture('error-invalid-schema.json')), code: 'upstream_rejected', message: /rejected the request \(it answered 400\)/ },
    { name: '404 (unknown model): the operator\'s configuration, logged', reply: json(404, fixture('error-model-not-found.json')), code: 'provider_unavailable', message: /does not serve the configured model \(it answered 404\)/, logged: /"level":50.*check OPENAI_MODEL and OPENAI_BASE_URL/ },
    {
      name: '429 with x-ratelimit-reset-requests',
      reply: json(429, fixture('error-rate-limit.json'), { 'x-ratelimit-limit-requests': '3', 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '20s', 'x-ratelimit-remaining-tokens': '39000', 'x-ratelimit-reset-tokens': '1m30s' }),
      code: 'upstream_rate_limited', message: /throttles this service \(it answered 429\); retry in 20 seconds/, headers: { 'Retry-After': '20' },
    },
    { name: '401 (key refused): logged for the operator', reply: json(401, fixture('error-invalid-api-key.json')), code: 'provider_unavailable', message: /refuses this service's credential \(it answered 401\)/, logged: /"level":50/ },
    { name: '403: logged for the operator', reply: json(403, fixture('error-invalid-api-key.json')), code: 'provider_unavailable', message: /refuses this service's credential \(it answered 403\)/, logged: /"level":50/ },
    { name: '500', reply: json(500, fixture('error-server.json')), code: 'upstream_failed', message: /answered 500/ },
    { name: '503', reply: json(503, fixture('error-server.json')), code: 'upstream_failed', message: /answered 503/ },
    { name: 'HTML with 200', reply: html(), code: 'upstream_failed', message: /HTML instead of JSON/ },
    { name: 'malformed JSON with 200', reply: json(200, '{"id":"chatcmpl-1","choices":[{'), code: 'upstream_failed', message: /not JSON/ },
    { name: 'an answer past the time bound', reply: slow(2000, completion({ content: JSON.stringify(PLANS) })), code: 'upstream_timeout', message: /did not answer within 500 ms/ },
    { name: 'an oversized answer', reply: oversized(70 * 1024), code: 'upstream_failed', message: /answered more than 65536 bytes/ },
  ];
  for (const failure of failures) {
    it(`${failure.name}: ${failure.code}, the key never logged`, async () => {
      server.answer = failure.reply;
      const logsBefore = h.logs().length;
      const error = await failureOf(extract(h.provider, { schema: JSON.stringify(STRICT_SCHEMA) }));
      expect(server.requests).toHaveLength(1);
      expect(error.code).toBe(failure.code);
      expect(error.message).toMatch(failure.message);
      expect(error.headers).toEqual(failure.headers ?? {});
      if (failure.logged) expect(h.logs().slice(logsBefore)).toMatch(failure.logged);
      expect(h.logs() + error.message).not.toContain(API_KEY);
    });
  }
});
