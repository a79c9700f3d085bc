/**
 * `web/extract` on the `openai` adapter against a fake OpenAI-compatible server on loopback that
 * answers with the Chat Completions API's documented response shapes (fixtures/).
 */
import { Writable } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { validatorAt, describeErrors } from '../../../contract-tests/contract.ts';
import { createLogger } from '../../logger.ts';
import { ProviderError, type DataProvider } from '../types.ts';
import { completion, fixture, startFakeModelServer, type FakeModelServer, type FakeReply } from './fake-model-server.ts';
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
  logs: string[];
  pagesRead: { url: string; options: unknown }[];
  close(): Promise<void>;
}

function harness(server: FakeModelServer, config: Partial<OpenAiConfig> = {}): Harness {
  const logs: string[] = [];
  const logger = createLogger('info', new Writable({ write(chunk, _encoding, done) { logs.push(String(chunk)); done(); } }));
  const full: OpenAiConfig = { baseUrl: server.baseUrl, apiKey: API_KEY, model: 'gpt-4o-mini', ...config };
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
  let server: FakeModelServer;
  let h: Harness;

  beforeAll(async () => {
    server = await startFakeModelServer();
    h = harness(server);
  });
  afterAll(async () => {
    await h.close();
    await server.close();
  });
  beforeEach(() => {
    server.received.length = 0;
    h.pagesRead.length = 0;
    h.logs.length = 0;
  });

  it('with a strict-compatible schema: posts json_schema strict true with the page Markdown, answers the contract data', async () => {
    server.answer({ body: completion({ content: JSON.stringify(PLANS) }) });
    const data = await extract(h.provider, { schema: JSON.stringify(STRICT_SCHEMA) });

    expect(server.received).toHaveLength(1);
    const [request] = server.received;
    expect(request!.method).toBe('POST');
    expect(request!.path).toBe('/v1/chat/completions');
    expect(request!.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(request!.body.model).toBe('gpt-4o-mini');
    expect(request!.body.response_format).toEqual({ type: 'json_schema', json_schema: { name: 'extracted_data', schema: STRICT_SCHEMA, strict: true } });
    expect(request!.body.messages.map((message: { role: string }) => message.role)).toEqual(['system', 'user']);
    expect(request!.body.messages[1].content).toContain(PAGE_MARKDOWN);
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
    server.answer({ body: completion({ content: '{"plans":[{"name":"Team"}]}' }) });
    const data = await extract(h.provider, { schema: JSON.stringify(openSchema) });
    expect(server.received[0]!.body.response_format.json_schema.strict).toBe(false);
    expect(data.extracted).toEqual({ plans: [{ name: 'Team' }] });
  });

  it('with a prompt: posts json_object with the instruction and the page, passes only_main_content and timeout to the page reader', async () => {
    server.answer({ body: completion({ content: '{"team_price":"$49 per month"}' }) });
    const data = await extract(h.provider, { prompt: 'What does the Team plan cost?', only_main_content: false, timeout: 5000 });
    const body = server.received[0]!.body;
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
    const provider = createOpenAiProvider(
      createOpenAiModel({ baseUrl: server.baseUrl, apiKey: null, model: 'm' }, { upstream: modelUpstream({ baseUrl: server.baseUrl, apiKey: null, model: 'm' }, createLogger('silent')), logger: createLogger('silent') }),
      { readPage: async (url) => ({ markdown: long, url }) },
    );
    server.answer({ body: completion({ content: '{"answer":"x"}' }) });
    await extract(provider, { prompt: 'What is it?' });
    const content: string = server.received[0]!.body.messages[1].content;
    expect(content).toContain(`${'x'.repeat(100_000)}\n</page>`);
    expect(content).not.toContain('x'.repeat(100_001));
    expect(content).toContain('[The page is longer: only its first 100000 of 150000 characters are shown.]');
  });

  it('without OPENAI_API_KEY no Authorization header is sent (a local server)', async () => {
    const local = harness(server, { apiKey: null });
    server.answer({ body: completion({ content: '{"a":1}' }) });
    await extract(local.provider, { prompt: 'a?' });
    await local.close();
    expect(server.received[0]!.headers.authorization).toBeUndefined();
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
      expect(server.received).toEqual([]);
    });
  }

  it('a page the reader cannot read fails as the reader says, and the model is not called', async () => {
    const provider = createOpenAiProvider(createOpenAiModel({ baseUrl: server.baseUrl, apiKey: null, model: 'm' }, { upstream: modelUpstream({ baseUrl: server.baseUrl, apiKey: null, model: 'm' }, createLogger('silent')), logger: createLogger('silent') }), {
      readPage: async () => {
        throw new ProviderError('upstream_not_found', 'The page answered 404.');
      },
    });
    const error = await failureOf(extract(provider, { prompt: 'a?' }));
    expect([error.code, error.message]).toEqual(['upstream_not_found', 'The page answered 404.']);
    expect(server.received).toEqual([]);
  });

  const oversized = completion({ content: JSON.stringify({ filler: 'y'.repeat(70 * 1024) }) });
  const failures: { name: string; reply: FakeReply; code: string; message: RegExp; headers?: Record<string, string>; logged?: RegExp }[] = [
    { name: 'empty content', reply: { body: completion({ content: '' }) }, code: 'upstream_failed', message: /^The language model answered with no content\.$/ },
    { name: 'a refusal (the documented refusal example)', reply: { body: fixture('refusal.json') }, code: 'upstream_failed', message: /^The language model refused to answer: "I'm sorry, I cannot assist with that request\."\.$/ },
    { name: 'finish_reason length (cut off)', reply: { body: completion({ content: '{"plans":[{"name":"Sta' }, 'length') }, code: 'upstream_failed', message: /cut off at its output limit \(finish_reason "length"\)/ },
    { name: 'content that is not JSON', reply: { body: completion({ content: 'The Team plan costs $49.' }) }, code: 'upstream_failed', message: /^The language model's answer is not JSON: / },
    { name: 'JSON that is not an object', reply: { body: completion({ content: '[1,2]' }) }, code: 'upstream_failed', message: /^The language model's answer is an array, not a JSON object\.$/ },
    { name: 'output failing the schema', reply: { body: completion({ content: '{"plans":[{"name":"Team","price_usd":"49"}]}' }) }, code: 'upstream_failed', message: /^The language model's answer does not match the schema: \/plans\/0\/price_usd must be number,null\.$/ },
    { name: 'a 2xx that is not a chat completion', reply: { body: { object: 'list', data: [] } }, code: 'upstream_failed', message: /not a chat completion: it has no choices\[0\]\.message/ },
    { name: '400 (the server rejects the schema)', reply: { status: 400, body: fixture('error-invalid-schema.json') }, code: 'upstream_rejected', message: /rejected the request \(it answered 400\)/ },
    { name: '404 (unknown model): the operator\'s configuration, logged', reply: { status: 404, body: fixture('error-model-not-found.json') }, code: 'provider_unavailable', message: /does not serve the configured model \(it answered 404\)/, logged: /"level":50.*check OPENAI_MODEL and OPENAI_BASE_URL/ },
    {
      name: '429 with x-ratelimit-reset-requests',
      reply: { status: 429, headers: { 'x-ratelimit-limit-requests': '3', 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '20s', 'x-ratelimit-remaining-tokens': '39000', 'x-ratelimit-reset-tokens': '1m30s' }, body: fixture('error-rate-limit.json') },
      code: 'upstream_rate_limited', message: /throttles this service \(it answered 429\); retry in 20 seconds/, headers: { 'Retry-After': '20' },
    },
    { name: '401 (key refused): logged for the operator', reply: { status: 401, body: fixture('error-invalid-api-key.json') }, code: 'provider_unavailable', message: /refuses this service's credential \(it answered 401\)/, logged: /"level":50/ },
    { name: '403: logged for the operator', reply: { status: 403, body: fixture('error-invalid-api-key.json') }, code: 'provider_unavailable', message: /refuses this service's credential \(it answered 403\)/, logged: /"level":50/ },
    { name: '500', reply: { status: 500, body: fixture('error-server.json') }, code: 'upstream_failed', message: /answered 500/ },
    { name: '503', reply: { status: 503, body: fixture('error-server.json') }, code: 'upstream_failed', message: /answered 503/ },
    { name: 'HTML with 200', reply: { headers: { 'content-type': 'text/html' }, body: '<html><body>Welcome to nginx!</body></html>' }, code: 'upstream_failed', message: /HTML instead of JSON/ },
    { name: 'malformed JSON with 200', reply: { body: '{"id":"chatcmpl-1","choices":[{' }, code: 'upstream_failed', message: /not JSON/ },
    { name: 'an answer past the time bound', reply: { delayMs: 2000, body: completion({ content: JSON.stringify(PLANS) }) }, code: 'upstream_timeout', message: /did not answer within 500 ms/ },
    { name: 'an oversized answer', reply: { body: oversized }, code: 'upstream_failed', message: /answered more than 65536 bytes/ },
  ];
  for (const failure of failures) {
    it(`${failure.name}: ${failure.code}, the key never logged`, async () => {
      server.answer(failure.reply);
      const error = await failureOf(extract(h.provider, { schema: JSON.stringify(STRICT_SCHEMA) }));
      expect(server.received).toHaveLength(1);
      expect(error.code).toBe(failure.code);
      expect(error.message).toMatch(failure.message);
      expect(error.headers).toEqual(failure.headers ?? {});
      if (failure.logged) expect(h.logs.join('')).toMatch(failure.logged);
      expect(h.logs.join('') + error.message).not.toContain(API_KEY);
    });
  }
});
