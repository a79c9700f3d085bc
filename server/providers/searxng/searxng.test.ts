import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { describeErrors, validatorAt } from '../../../contract-tests/contract.ts';
import { ConfigError } from '../../config.ts';
import { json, startFakeUpstream, type FakeAnswer, type FakeUpstream } from '../../test-support/fake-upstream.ts';
import { expectSearchFailure, failureCases, TEST_LIMITS } from '../search/search-adapter.cases.ts';
import { ProviderError, type DataProvider } from '../types.ts';
import type { ReadPage } from '../read-page.ts';
import { createSearxngProvider, searxngConfig } from './index.ts';
import web from './fixtures/web.json' with { type: 'json' };
import news from './fixtures/news.json' with { type: 'json' };
import images from './fixtures/images.json' with { type: 'json' };
import empty from './fixtures/empty.json' with { type: 'json' };
import unresponsive from './fixtures/unresponsive.json' with { type: 'json' };

const NOW = Date.parse('2026-11-05T00:00:00Z');
const validate = validatorAt('/components/schemas/WebSearchResults');

let fake: FakeUpstream;
beforeAll(async () => { fake = await startFakeUpstream(); });
afterAll(async () => { await fake.close(); });

/** Answers each source's fixture by the `categories` SearXNG was asked for. */
const bySource: FakeAnswer = (request, response) => {
  const categories = new URL(request.url, 'http://x').searchParams.get('categories');
  json(200, categories === 'news' ? news : categories === 'images' ? images : web)(request, response);
};

function provider(readPage: ReadPage = async () => Promise.reject(new Error('no page reader'))): DataProvider {
  return createSearxngProvider({ url: `${fake.baseUrl}/searxng/` }, { logger: pino({ level: 'silent' }), readPage, limits: TEST_LIMITS, now: () => NOW });
}

async function search(query: Record<string, unknown>, answer: FakeAnswer = bySource, readPage?: ReadPage) {
  fake.answer = answer;
  fake.requests.length = 0;
  const data = await provider(readPage).fetch({ operationId: 'searchWeb', query, signal: new AbortController().signal });
  const valid = validate(data);
  expect(describeErrors(validate.errors), 'the answer is valid against WebSearchResults').toEqual([]);
  expect(valid).toBe(true);
  return { data: data as { query: string; results: Record<string, unknown>[] }, asked: fake.requests.map((request) => new URL(request.url, 'http://x')) };
}

function params(url: URL): Record<string, string> {
  return Object.fromEntries(url.searchParams);
}

describe('the searxng adapter', () => {
  it('asks GET {SEARXNG_URL}/search?q=…&format=json&categories=general and maps url, title, content, publishedDate of each result', async () => {
    const { data, asked } = await search({ query: 'open source vector database benchmarks', limit: 3 });
    expect(asked.map((url) => url.pathname)).toEqual(['/searxng/search']);
    expect(params(asked[0]!)).toEqual({ q: 'open source vector database benchmarks', format: 'json', categories: 'general' });
    expect(data).toEqual({
      query: 'open source vector database benchmarks',
      results: [
        { url: 'https://qdrant.tech/benchmarks/', title: 'Vector Database Benchmarks - Qdrant', description: 'Open-source benchmarks of vector search engines: upload time, search speed and precision on standard datasets.', source: 'web', position: 1, published_at: null, image_url: null, markdown: null },
        { url: 'https://github.com/erikbern/ann-benchmarks', title: 'erikbern/ann-benchmarks: Benchmarks of approximate nearest neighbor libraries', description: 'Benchmarks of approximate nearest neighbor libraries in Python.', source: 'web', position: 2, published_at: null, image_url: null, markdown: null },
        { url: 'https://example-dev-blog.com/posts/pgvector-vs-milvus', title: 'pgvector vs Milvus at 10 million vectors', description: null, source: 'web', position: 3, published_at: '2026-09-18T08:00:00Z', image_url: null, markdown: null },
      ],
    });
  });

  it('news then images, each asked with its category and time_range; images take img_src as image_url', async () => {
    const { data, asked } = await search({ query: 'electric ferry', sources: 'news,images', time_range: 'week', country: 'NO', limit: 2 });
    expect(asked.map(params)).toEqual([
      { q: 'electric ferry', format: 'json', categories: 'news', time_range: 'week' },
      { q: 'electric ferry', format: 'json', categories: 'images', time_range: 'week' },
    ]);
    expect(data.results).toEqual([
      { url: 'https://news.example.no/2026/11/world-largest-electric-ferry-enters-service', title: "World's largest electric ferry enters service on the Oslofjord", description: 'The 140-metre ferry carries 600 passengers and 200 cars on batteries alone.', source: 'news', position: 1, published_at: '2026-11-04T06:45:00Z', image_url: null, markdown: null },
      { url: 'https://maritime-weekly.example.com/articles/charging-at-sea', title: 'Charging at sea - how ports keep electric ferries running', description: null, source: 'news', position: 2, published_at: '2026-11-01T12:10:00Z', image_url: null, markdown: null },
      { url: 'https://news.example.no/2026/11/world-largest-electric-ferry-enters-service', title: 'The ferry leaving Moss harbour', description: null, source: 'images', position: 1, published_at: null, image_url: 'https://cdn.news.example.no/images/2026/11/ferry-moss-1600.jpg', markdown: null },
      { url: 'https://commons.example.org/wiki/File:Electric_ferry_Bast%C3%B8.jpg', title: 'File:Electric ferry Bastø.jpg', description: null, source: 'images', position: 2, published_at: null, image_url: 'https://upload.example.org/commons/b/b4/Electric_ferry_Bast%C3%B8.jpg', markdown: null },
    ]);
  });

  it('time_range=hour asks SearXNG for a day and drops the results older than an hour', async () => {
    const { data, asked } = await search({ query: 'electric ferry', sources: 'news', time_range: 'hour' }, json(200, news));
    expect(params(asked[0]!).time_range).toBe('day');
    expect(data.results).toEqual([]);
  });

  it('include_domains become site: terms and the answer keeps only those hosts, asking further pages while fewer than limit', async () => {
    const { data, asked } = await search({ query: 'benchmarks', include_domains: 'github.com,qdrant.tech', limit: 5 });
    expect(asked.map((url) => [url.searchParams.get('q'), url.searchParams.get('pageno')])).toEqual([
      ['benchmarks (site:github.com OR site:qdrant.tech)', null], ['benchmarks (site:github.com OR site:qdrant.tech)', '2'], ['benchmarks (site:github.com OR site:qdrant.tech)', '3'],
    ]);
    expect(data.results.map((result) => [result.url, result.position])).toEqual([['https://qdrant.tech/benchmarks/', 1], ['https://github.com/erikbern/ann-benchmarks', 2]]);
  });

  it('exclude_domains become -site: terms and the answer drops those hosts and their subdomains', async () => {
    const { data, asked } = await search({ query: 'benchmarks', exclude_domains: 'pinterest.com', limit: 10 }, json(200, web));
    expect(asked[0]!.searchParams.get('q')).toBe('benchmarks -site:pinterest.com');
    expect(data.results.map((result) => result.url)).not.toContain('https://www.pinterest.com/pin/vector-benchmarks/');
    expect(data.results).toHaveLength(3);
  });

  it('categories=github asks the it category and keeps only GitHub results', async () => {
    const { data, asked } = await search({ query: 'benchmarks', categories: 'github' }, json(200, web));
    expect(asked[0]!.searchParams.get('categories')).toBe('it');
    expect(data.results.map((result) => result.url)).toEqual(['https://github.com/erikbern/ann-benchmarks']);
  });

  it('sort_by_date orders newest first, undated last, positions renumbered', async () => {
    const { data } = await search({ query: 'benchmarks', sort_by_date: true, limit: 3 }, json(200, web));
    expect(data.results.map((result) => [result.position, result.published_at])).toEqual([[1, '2026-09-18T08:00:00Z'], [2, null], [3, null]]);
  });

  it('include_content reads each result page through readPage; a page that cannot be read leaves its markdown null', async () => {
    const read: string[] = [];
    const readPage: ReadPage = async (url) => {
      read.push(url);
      if (url.includes('github.com')) throw new ProviderError('upstream_failed', 'The page answered 500.');
      return { markdown: `# ${url}`, url };
    };
    const { data } = await search({ query: 'benchmarks', include_content: true, limit: 3 }, json(200, web), readPage);
    expect(read.sort()).toEqual(['https://example-dev-blog.com/posts/pgvector-vs-milvus', 'https://github.com/erikbern/ann-benchmarks', 'https://qdrant.tech/benchmarks/']);
    expect(data.results.map((result) => result.markdown)).toEqual(['# https://qdrant.tech/benchmarks/', null, '# https://example-dev-blog.com/posts/pgvector-vs-milvus']);
  });

  it('an empty answer with every engine responding is no results, not a failure', async () => {
    const { data } = await search({ query: 'qwzxv plorkt' }, json(200, empty));
    expect(data).toEqual({ query: 'qwzxv plorkt', results: [] });
  });

  it('an empty answer whose unresponsive_engines is not empty is 502 upstream_failed, not "no results"', async () => {
    fake.answer = json(200, unresponsive);
    const error = await provider().fetch({ operationId: 'searchWeb', query: { query: 'electric ferry' }, signal: new AbortController().signal }).catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(ProviderError);
    expect([(error as ProviderError).code, (error as ProviderError).message]).toEqual(['upstream_failed', 'SearXNG answered no results because its engines did not respond: google (timeout), bing (Suspended: access denied).']);
  });

  it('a 200 JSON answer without a results list is 502 upstream_failed', async () => {
    fake.answer = json(200, { query: 'x' });
    await expect(provider().fetch({ operationId: 'searchWeb', query: { query: 'x' }, signal: new AbortController().signal })).rejects.toMatchObject({ code: 'upstream_failed', message: 'SearXNG answered JSON without a results list.' });
  });

  it('routed to another operation, it is no provider (503 provider_unavailable)', async () => {
    await expect(provider().fetch({ operationId: 'getPriceHistory', query: {}, signal: new AbortController().signal })).rejects.toMatchObject({ code: 'provider_unavailable' });
  });

  it.each(failureCases('SearXNG', { headers: { 'Retry-After': '120' }, retryAfter: '120' }))('$name', async (failure) => {
    fake.answer = failure.answer;
    await expectSearchFailure(provider(), failure, '127.0.0.1');
  });
});

describe('searxngConfig', () => {
  it('is null when SEARXNG_URL is unset, the URL when set, and a ConfigError naming SEARXNG_URL when it is not an http(s) URL', () => {
    expect(searxngConfig({})).toBeNull();
    expect(searxngConfig({ SEARXNG_URL: 'http://127.0.0.1:8888/' })).toEqual({ url: 'http://127.0.0.1:8888' });
    expect(() => searxngConfig({ SEARXNG_URL: 'searxng' })).toThrow(ConfigError);
    expect(() => searxngConfig({ SEARXNG_URL: 'searxng' })).toThrow(/^SEARXNG_URL must be an http\(s\) URL/);
  });
});
