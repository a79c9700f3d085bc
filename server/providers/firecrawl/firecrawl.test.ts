import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { describeErrors, validatorAt } from '../../../contract-tests/contract.ts';
import { ConfigError } from '../../config.ts';
import { json, startFakeUpstream, type FakeAnswer, type FakeUpstream } from '../../test-support/fake-upstream.ts';
import { expectSearchFailure, failureCases, TEST_LIMITS } from '../search/search-adapter.cases.ts';
import type { DataProvider } from '../types.ts';
import type { ReadPage } from '../read-page.ts';
import { createFirecrawlProvider, firecrawlConfig } from './index.ts';
import fixture from './fixtures/search.json' with { type: 'json' };
import empty from './fixtures/empty.json' with { type: 'json' };
import paymentRequired from './fixtures/payment-required.json' with { type: 'json' };
import failed from './fixtures/failed.json' with { type: 'json' };

const KEY = 'fc-test0000000000000000';
const NOW = Date.parse('2026-11-05T00:00:00Z');
const validate = validatorAt('/components/schemas/WebSearchResults');

let fake: FakeUpstream;
beforeAll(async () => { fake = await startFakeUpstream(); });
afterAll(async () => { await fake.close(); });

function provider(readPage: ReadPage = async () => Promise.reject(new Error('no page reader')), apiKey: string | null = KEY): DataProvider {
  return createFirecrawlProvider({ url: fake.baseUrl, apiKey: apiKey ?? undefined }, { logger: pino({ level: 'silent' }), readPage, limits: TEST_LIMITS, now: () => NOW });
}

async function search(query: Record<string, unknown>, answer: FakeAnswer = json(200, fixture), readPage?: ReadPage) {
  fake.answer = answer;
  fake.requests.length = 0;
  const data = await provider(readPage).fetch({ operationId: 'searchWeb', query, signal: new AbortController().signal });
  const valid = validate(data);
  expect(describeErrors(validate.errors), 'the answer is valid against WebSearchResults').toEqual([]);
  expect(valid).toBe(true);
  return { data: data as { query: string; results: Record<string, unknown>[] }, sent: fake.requests.at(-1)! };
}

describe('the firecrawl adapter', () => {
  it('sends POST /v2/search with query, limit and sources, Bearer key; maps data.web[] url, title, description', async () => {
    const { data, sent } = await search({ query: 'open source vector database benchmarks', limit: 3 });
    expect([sent.method, sent.url, sent.headers.authorization]).toEqual(['POST', '/v2/search', `Bearer ${KEY}`]);
    expect(sent.body).toEqual({ query: 'open source vector database benchmarks', limit: 3, sources: [{ type: 'web' }] });
    expect(data).toEqual({
      query: 'open source vector database benchmarks',
      results: [
        { url: 'https://qdrant.tech/benchmarks/', title: 'Vector Database Benchmarks - Qdrant', description: 'Open-source benchmarks of vector search engines: upload time, search speed and precision on standard datasets.', source: 'web', position: 1, published_at: null, image_url: null, markdown: null },
        { url: 'https://github.com/erikbern/ann-benchmarks', title: 'erikbern/ann-benchmarks: Benchmarks of approximate nearest neighbor libraries', description: 'Benchmarks of approximate nearest neighbor libraries in Python.', source: 'web', position: 2, published_at: null, image_url: null, markdown: null },
        { url: 'https://example-dev-blog.com/posts/pgvector-vs-milvus', title: 'pgvector vs Milvus at 10 million vectors', description: null, source: 'web', position: 3, published_at: null, image_url: null, markdown: null },
      ],
    });
  });

  it('news (snippet, an ISO date; a relative date is null) then images (imageUrl), with tbs, country and location sent', async () => {
    const { data, sent } = await search({ query: 'electric ferry', sources: 'news,images', time_range: 'week', country: 'no', location: 'Oslo, Norway', limit: 2 });
    expect(sent.body).toEqual({ query: 'electric ferry', limit: 2, sources: [{ type: 'news' }, { type: 'images' }], tbs: 'qdr:w', country: 'NO', location: 'Oslo, Norway' });
    expect(data.results).toEqual([
      { url: 'https://news.example.no/2026/11/world-largest-electric-ferry-enters-service', title: "World's largest electric ferry enters service on the Oslofjord", description: 'The 140-metre ferry carries 600 passengers and 200 cars on batteries alone.', source: 'news', position: 1, published_at: '2026-11-04T06:45:00Z', image_url: null, markdown: null },
      { url: 'https://maritime-weekly.example.com/articles/charging-at-sea', title: 'Charging at sea - how ports keep electric ferries running', description: null, source: 'news', position: 2, published_at: null, image_url: null, markdown: null },
      { url: 'https://news.example.no/2026/11/world-largest-electric-ferry-enters-service', title: 'The ferry leaving Moss harbour', description: null, source: 'images', position: 1, published_at: null, image_url: 'https://cdn.news.example.no/images/2026/11/ferry-moss-1600.jpg', markdown: null },
      { url: 'https://commons.example.org/wiki/File:Electric_ferry_Bast%C3%B8.jpg', title: 'File:Electric ferry Bastø.jpg', description: null, source: 'images', position: 2, published_at: null, image_url: 'https://upload.example.org/commons/b/b4/Electric_ferry_Bast%C3%B8.jpg', markdown: null },
    ]);
  });

  it('categories are sent as Firecrawl categories and its own category is trusted; sort_by_date adds sbd:1 to tbs', async () => {
    const { data, sent } = await search({ query: 'benchmarks', categories: 'github,research', sort_by_date: true, time_range: 'year' });
    expect(sent.body).toEqual({ query: 'benchmarks', limit: 15, sources: [{ type: 'web' }], categories: [{ type: 'github' }, { type: 'research' }], tbs: 'sbd:1,qdr:y' });
    expect(data.results.map((result) => result.url)).toEqual(['https://github.com/erikbern/ann-benchmarks']);
  });

  it('include_domains become site: terms, more results are asked, and the answer keeps only those hosts', async () => {
    const { data, sent } = await search({ query: 'benchmarks', include_domains: 'qdrant.tech,example-dev-blog.com', limit: 5 });
    expect(sent.body).toMatchObject({ query: 'benchmarks (site:qdrant.tech OR site:example-dev-blog.com)', limit: 15 });
    expect(data.results.map((result) => [result.url, result.position])).toEqual([['https://qdrant.tech/benchmarks/', 1], ['https://example-dev-blog.com/posts/pgvector-vs-milvus', 2]]);
  });

  it('exclude_domains become -site: terms and those hosts are dropped', async () => {
    const { data, sent } = await search({ query: 'benchmarks', exclude_domains: 'github.com' });
    expect(sent.body).toMatchObject({ query: 'benchmarks -site:github.com' });
    expect(data.results.map((result) => result.url)).toEqual(['https://qdrant.tech/benchmarks/', 'https://example-dev-blog.com/posts/pgvector-vs-milvus']);
  });

  it('include_content reads each page through readPage; a page that cannot be read leaves markdown null', async () => {
    const read: string[] = [];
    const { data } = await search({ query: 'benchmarks', include_content: true, limit: 2 }, json(200, fixture), async (url) => {
      read.push(url);
      if (url.includes('github')) return Promise.reject(new Error('timeout'));
      return { markdown: '# Benchmarks', url };
    });
    expect(read.sort()).toEqual(['https://github.com/erikbern/ann-benchmarks', 'https://qdrant.tech/benchmarks/']);
    expect(data.results.map((result) => result.markdown)).toEqual(['# Benchmarks', null]);
  });

  it('a self-hosted Firecrawl without a key is called without authorization', async () => {
    fake.answer = json(200, empty);
    await provider(undefined, null).fetch({ operationId: 'searchWeb', query: { query: 'x' }, signal: new AbortController().signal });
    expect(fake.requests.at(-1)!.headers.authorization).toBeUndefined();
  });

  it('an empty data.web is no results', async () => {
    const { data } = await search({ query: 'qwzxv plorkt' }, json(200, empty));
    expect(data).toEqual({ query: 'qwzxv plorkt', results: [] });
  });

  it('a 200 with success: false is 502 upstream_failed; a 402 (credits exhausted) is 503 upstream_rate_limited', async () => {
    fake.answer = json(200, failed);
    await expect(provider().fetch({ operationId: 'searchWeb', query: { query: 'x' }, signal: new AbortController().signal })).rejects.toMatchObject({ code: 'upstream_failed', message: 'Firecrawl answered success: false.' });
    fake.answer = json(402, paymentRequired);
    await expect(provider().fetch({ operationId: 'searchWeb', query: { query: 'x' }, signal: new AbortController().signal })).rejects.toMatchObject({ code: 'upstream_rate_limited', message: 'Firecrawl throttles this service (it answered 402); retry later. No credits were used.' });
  });

  it.each(failureCases('Firecrawl', { headers: { 'Retry-After': '42' }, retryAfter: '42' }))('$name', async (failure) => {
    fake.answer = failure.answer;
    await expectSearchFailure(provider(), failure, KEY);
  });
});

describe('firecrawlConfig', () => {
  const cases: { name: string; env: Record<string, string>; config?: unknown; error?: string }[] = [
    { name: 'nothing set: off (null)', env: {}, config: null },
    { name: 'a key alone: the hosted API', env: { FIRECRAWL_API_KEY: KEY }, config: { url: 'https://api.firecrawl.dev', apiKey: KEY } },
    { name: 'a URL alone: a self-hosted Firecrawl without authentication', env: { FIRECRAWL_API_URL: 'http://127.0.0.1:3002/' }, config: { url: 'http://127.0.0.1:3002', apiKey: undefined } },
    { name: 'a bad URL names FIRECRAWL_API_URL', env: { FIRECRAWL_API_URL: 'localhost:3002' }, error: 'FIRECRAWL_API_URL must be an http(s) URL' },
    { name: 'a key with a line break names FIRECRAWL_API_KEY', env: { FIRECRAWL_API_KEY: 'fc-a\nfc-b' }, error: 'FIRECRAWL_API_KEY must be one API key' },
  ];
  it.each(cases)('$name', ({ env, config, error }) => {
    if (error === undefined) expect(firecrawlConfig(env)).toEqual(config);
    else {
      expect(() => firecrawlConfig(env)).toThrow(ConfigError);
      expect(() => firecrawlConfig(env)).toThrow(error);
    }
  });
});
