import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { describeErrors, validatorAt } from '../../../contract-tests/contract.ts';
import { ConfigError } from '../../config.ts';
import { capturingLogger, json, startFakeUpstream, type FakeAnswer, type FakeUpstream } from '../../test-support/fake-upstream.ts';
import { expectSearchFailure, failureCases, TEST_LIMITS } from '../search/search-adapter.cases.ts';
import type { DataProvider } from '../types.ts';
import type { ReadPage } from '../read-page.ts';
import { braveConfig, createBraveProvider } from './index.ts';
import web from './fixtures/web.json' with { type: 'json' };
import news from './fixtures/news.json' with { type: 'json' };
import images from './fixtures/images.json' with { type: 'json' };
import empty from './fixtures/empty.json' with { type: 'json' };
import rateLimited from './fixtures/rate-limited.json' with { type: 'json' };

const KEY = 'BSAtestkey0000000000000000000';
const NOW = Date.parse('2026-11-05T00:00:00Z');
const validate = validatorAt('/components/schemas/WebSearchResults');

let fake: FakeUpstream;
beforeAll(async () => { fake = await startFakeUpstream(); });
afterAll(async () => { await fake.close(); });

/** Answers web search by its result_filter, and image search with its fixture. */
const bySource: FakeAnswer = (request, response) => {
  const url = new URL(request.url, 'http://x');
  json(200, url.pathname.endsWith('/images/search') ? images : url.searchParams.get('result_filter') === 'news' ? news : web)(request, response);
};

function provider(logger = pino({ level: 'silent' }), readPage: ReadPage = async () => Promise.reject(new Error('no page reader'))): DataProvider {
  return createBraveProvider({ url: fake.baseUrl, apiKey: KEY }, { logger, readPage, limits: TEST_LIMITS, now: () => NOW });
}

async function search(query: Record<string, unknown>, answer: FakeAnswer = bySource) {
  fake.answer = answer;
  fake.requests.length = 0;
  const data = await provider().fetch({ operationId: 'searchWeb', query, signal: new AbortController().signal });
  const valid = validate(data);
  expect(describeErrors(validate.errors), 'the answer is valid against WebSearchResults').toEqual([]);
  expect(valid).toBe(true);
  return { data: data as { query: string; results: Record<string, unknown>[] }, asked: fake.requests.map((request) => ({ url: new URL(request.url, 'http://x'), headers: request.headers })) };
}

function params(url: URL): Record<string, string> {
  return Object.fromEntries(url.searchParams);
}

describe('the brave adapter', () => {
  it('asks GET /res/v1/web/search?q=&count=&result_filter=web with X-Subscription-Token and maps web.results[] title, url, description, page_age', async () => {
    const { data, asked } = await search({ query: 'open source vector database benchmarks', limit: 3 });
    expect(asked.map(({ url }) => url.pathname)).toEqual(['/res/v1/web/search']);
    expect(params(asked[0]!.url)).toEqual({ q: 'open source vector database benchmarks', count: '3', result_filter: 'web', text_decorations: 'false' });
    expect(asked[0]!.headers['x-subscription-token']).toBe(KEY);
    expect(data).toEqual({
      query: 'open source vector database benchmarks',
      results: [
        { url: 'https://qdrant.tech/benchmarks/', title: 'Vector Database Benchmarks - Qdrant', description: 'Open-source benchmarks of vector search engines: upload time, search speed and precision on standard datasets.', source: 'web', position: 1, published_at: null, image_url: null, markdown: null },
        { url: 'https://github.com/erikbern/ann-benchmarks', title: 'erikbern/ann-benchmarks: Benchmarks of approximate nearest neighbor libraries', description: 'Benchmarks of approximate nearest neighbor libraries in Python.', source: 'web', position: 2, published_at: '2026-10-30T11:02:51Z', image_url: null, markdown: null },
        { url: 'https://example-dev-blog.com/posts/pgvector-vs-milvus', title: 'pgvector vs Milvus at 10 million vectors', description: null, source: 'web', position: 3, published_at: '2026-09-18T08:00:00Z', image_url: null, markdown: null },
      ],
    });
  });

  it('news (news.results[]) with country and freshness, then images (/res/v1/images/search, properties.url as image_url)', async () => {
    const { data, asked } = await search({ query: 'electric ferry', sources: 'news,images', time_range: 'week', country: 'no', limit: 2 });
    expect(asked.map(({ url }) => [url.pathname, params(url)])).toEqual([
      ['/res/v1/web/search', { q: 'electric ferry', count: '2', country: 'NO', freshness: 'pw', result_filter: 'news', text_decorations: 'false' }],
      ['/res/v1/images/search', { q: 'electric ferry', count: '4', country: 'NO' }],
    ]);
    expect(data.results).toEqual([
      { url: 'https://news.example.no/2026/11/world-largest-electric-ferry-enters-service', title: "World's largest electric ferry enters service on the Oslofjord", description: 'The 140-metre ferry carries 600 passengers and 200 cars on batteries alone.', source: 'news', position: 1, published_at: '2026-11-04T06:45:00Z', image_url: null, markdown: null },
      { url: 'https://maritime-weekly.example.com/articles/charging-at-sea', title: 'Charging at sea - how ports keep electric ferries running', description: null, source: 'news', position: 2, published_at: '2026-11-01T12:10:00Z', image_url: null, markdown: null },
      { url: 'https://news.example.no/2026/11/world-largest-electric-ferry-enters-service', title: 'The ferry leaving Moss harbour', description: null, source: 'images', position: 1, published_at: null, image_url: 'https://cdn.news.example.no/images/2026/11/ferry-moss-1600.jpg', markdown: null },
      { url: 'https://commons.example.org/wiki/File:Electric_ferry_Bast%C3%B8.jpg', title: 'File:Electric ferry Bastø.jpg', description: null, source: 'images', position: 2, published_at: null, image_url: 'https://upload.example.org/commons/b/b4/Electric_ferry_Bast%C3%B8.jpg', markdown: null },
    ]);
  });

  it('time_range=hour asks freshness=pd and drops results dated more than an hour ago', async () => {
    const { data, asked } = await search({ query: 'electric ferry', sources: 'news', time_range: 'hour' }, json(200, news));
    expect(asked[0]!.url.searchParams.get('freshness')).toBe('pd');
    expect(data.results).toEqual([]);
  });

  it('include_domains become site: terms, the answer keeps only those hosts, and further pages (offset) are asked while Brave has more', async () => {
    const { data, asked } = await search({ query: 'benchmarks', include_domains: 'github.com', limit: 5 }, json(200, web));
    expect(asked.map(({ url }) => [url.searchParams.get('q'), url.searchParams.get('offset')])).toEqual([['benchmarks site:github.com', null], ['benchmarks site:github.com', '1'], ['benchmarks site:github.com', '2']]);
    expect(data.results.map((result) => [result.url, result.position])).toEqual([['https://github.com/erikbern/ann-benchmarks', 1]]);
  });

  it('exclude_domains become -site: terms and categories=github keeps only GitHub results', async () => {
    const excluded = await search({ query: 'benchmarks', exclude_domains: 'qdrant.tech' }, json(200, web));
    expect(excluded.asked[0]!.url.searchParams.get('q')).toBe('benchmarks -site:qdrant.tech');
    expect(excluded.data.results.map((result) => result.url)).not.toContain('https://qdrant.tech/benchmarks/');
    const github = await search({ query: 'benchmarks', categories: 'github', limit: 1 }, json(200, web));
    expect(github.data.results.map((result) => result.url)).toEqual(['https://github.com/erikbern/ann-benchmarks']);
  });

  it('sort_by_date orders newest first, undated last', async () => {
    const { data } = await search({ query: 'benchmarks', sort_by_date: true, limit: 3 }, json(200, web));
    expect(data.results.map((result) => result.published_at)).toEqual(['2026-10-30T11:02:51Z', '2026-09-18T08:00:00Z', null]);
  });

  it('include_content reads each page through readPage; a page that cannot be read leaves markdown null', async () => {
    fake.answer = json(200, web);
    const read: string[] = [];
    const data = await provider(pino({ level: 'silent' }), async (url) => {
      read.push(url);
      if (url.includes('qdrant')) throw new Error('refused');
      return { markdown: '# Page', url };
    }).fetch({ operationId: 'searchWeb', query: { query: 'benchmarks', include_content: true, limit: 3 }, signal: new AbortController().signal }) as { results: { markdown: string | null }[] };
    expect(read).toHaveLength(3);
    expect(data.results.map((result) => result.markdown)).toEqual([null, '# Page', '# Page']);
  });

  it('an answer with no web section is no results', async () => {
    const { data } = await search({ query: 'qwzxv plorkt' }, json(200, empty));
    expect(data).toEqual({ query: 'qwzxv plorkt', results: [] });
  });

  it("Brave's documented 429 (X-RateLimit-Remaining 0 on the per-second window) is 503 upstream_rate_limited with Retry-After 1; a 401 is logged at error level without the key", async () => {
    fake.answer = json(429, rateLimited, { 'X-RateLimit-Limit': '1, 2000', 'X-RateLimit-Policy': '1;w=1, 2000;w=2592000', 'X-RateLimit-Remaining': '0, 1963', 'X-RateLimit-Reset': '1, 1419704' });
    await expect(provider().fetch({ operationId: 'searchWeb', query: { query: 'x' }, signal: new AbortController().signal })).rejects.toMatchObject({ code: 'upstream_rate_limited', headers: { 'Retry-After': '1' } });
    fake.answer = json(401, { type: 'ErrorResponse', error: { status: 401, code: 'SUBSCRIPTION_TOKEN_INVALID', detail: 'The provided subscription token is invalid.' } });
    const log = capturingLogger();
    await expect(provider(log.logger).fetch({ operationId: 'searchWeb', query: { query: 'x' }, signal: new AbortController().signal })).rejects.toMatchObject({ code: 'provider_unavailable' });
    expect(log.lines()).toContainEqual(expect.objectContaining({ level: 50, provider: 'Brave Search', status: 401 }));
    expect(log.text()).not.toContain(KEY);
  });

  it.each(failureCases('Brave Search', { headers: { 'X-RateLimit-Remaining': '14, 0', 'X-RateLimit-Reset': '1, 86400' }, retryAfter: '86400' }))('$name', async (failure) => {
    fake.answer = failure.answer;
    await expectSearchFailure(provider(), failure, KEY);
  });
});

describe('braveConfig', () => {
  const cases: { name: string; env: Record<string, string>; config?: unknown; error?: string }[] = [
    { name: 'nothing set: off (null)', env: {}, config: null },
    { name: 'a key alone: the official API', env: { BRAVE_SEARCH_API_KEY: KEY }, config: { url: 'https://api.search.brave.com', apiKey: KEY } },
    { name: 'a key and a URL (a proxy)', env: { BRAVE_SEARCH_API_KEY: KEY, BRAVE_SEARCH_URL: 'http://127.0.0.1:9000/' }, config: { url: 'http://127.0.0.1:9000', apiKey: KEY } },
    { name: 'a URL without a key names BRAVE_SEARCH_API_KEY', env: { BRAVE_SEARCH_URL: 'http://127.0.0.1:9000' }, error: 'BRAVE_SEARCH_URL is set but BRAVE_SEARCH_API_KEY is not' },
    { name: 'a bad URL names BRAVE_SEARCH_URL', env: { BRAVE_SEARCH_API_KEY: KEY, BRAVE_SEARCH_URL: 'api.search.brave.com' }, error: 'BRAVE_SEARCH_URL must be an http(s) URL' },
    { name: 'a key with a space names BRAVE_SEARCH_API_KEY', env: { BRAVE_SEARCH_API_KEY: 'BSA key' }, error: 'BRAVE_SEARCH_API_KEY must be one API key' },
  ];
  it.each(cases)('$name', ({ env, config, error }) => {
    if (error === undefined) expect(braveConfig(env)).toEqual(config);
    else {
      expect(() => braveConfig(env)).toThrow(ConfigError);
      expect(() => braveConfig(env)).toThrow(error);
    }
  });
});
