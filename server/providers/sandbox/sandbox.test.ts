import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { describeErrors, validatorAt } from '../../../contract-tests/contract.ts';
import { type DataOperationId, ProviderError } from '../types.ts';
import { sandboxProvider } from './index.ts';
import { queriesByOperation } from './sandbox.cases.ts';
import { sandboxAgentAnswer, sandboxCrawlUrls, sandboxDocument } from './web.ts';

type Query = Record<string, unknown>;
type Data = Record<string, any>;

const DATA_SCHEMA: { [id in DataOperationId]: string } = {
  scrapeWebPage: 'WebDocument',
  searchWeb: 'WebSearchResults',
  mapWebsite: 'WebsiteMap',
  extractWebData: 'WebExtraction',
  listCollectionVideos: 'ShortVideoCollectionVideos',
  getPriceHistory: 'PriceHistory',
  getMicroblogPost: 'MicroblogPostLookup',
  listSocialEvents: 'SocialEventsPage',
};
const operations = Object.keys(DATA_SCHEMA) as DataOperationId[];

function fetchData(operationId: DataOperationId, query: Query): Promise<Data> {
  return sandboxProvider.fetch({ operationId, query, signal: new AbortController().signal });
}

function expectValid(schemaName: string, value: unknown): void {
  const validate = validatorAt(`/components/schemas/${schemaName}`);
  expect(validate(value) ? [] : describeErrors(validate.errors)).toEqual([]);
}

async function errorCode(run: () => unknown): Promise<string | undefined> {
  try {
    await run();
  } catch (error) {
    if (error instanceof ProviderError) return error.code;
    throw error;
  }
  return undefined;
}

// Concurrent: a scrape's `wait_for` is waited for real (2 s in one case, twice per test), and every
// case is a pure function of its request, so the waits overlap instead of adding up.
describe.concurrent.each(operations)('sandbox %s', (operationId) => {
  const queries = queriesByOperation[operationId];

  it('has at least 20 requests to run', () => {
    expect(queries.length).toBeGreaterThanOrEqual(20);
  });

  // The two asks of a request at once: a 2 s `wait_for` is waited for once, not twice in a row.
  it.each(queries.map((query) => [JSON.stringify(query).slice(0, 120), query] as const))('answers %s with valid data, the same twice', async (_name, query) => {
    const [data, again] = await Promise.all([fetchData(operationId, query), fetchData(operationId, { ...query })]);
    expectValid(DATA_SCHEMA[operationId], data);
    expect(again).toEqual(data);
  });

  it('answers different requests with different data', async () => {
    const answers = await Promise.all(queries.map(async (query) => JSON.stringify(await fetchData(operationId, query))));
    expect(new Set(answers).size).toBe(queries.length);
  });
});

describe('sandbox consistency', () => {
  it.each([
    ['mapWebsite', { url: 'https://example.net' }, { url: 'https://example.net', fresh: true, sitemap: 'include', ignore_query_parameters: true }],
    ['listCollectionVideos', { collection_id: 'abc' }, { collection_id: 'abc', limit: 20 }],
    ['getPriceHistory', { symbol: 'AAPL' }, { symbol: 'aapl', interval: '1d', range: '1mo' }],
    ['listSocialEvents', { url: 'https://socialnet.example/x' }, { url: 'https://socialnet.example/x', time: 'upcoming' }],
  ] as const)('answers %s requests that only spell out defaults with the same data (cursors aside)', async (operationId, short, spelledOut) => {
    const withoutCursor = ({ next_cursor: _cursor, ...data }: Data): Data => data;
    expect(withoutCursor(await fetchData(operationId, spelledOut))).toEqual(withoutCursor(await fetchData(operationId, short)));
  });
});

describe('sandbox scrape', () => {
  it.concurrent.each(queriesByOperation.scrapeWebPage)('carries exactly the formats asked for: %j', async (query) => {
    const document = await fetchData('scrapeWebPage', query);
    const asked = String(query.formats ?? 'markdown,metadata').split(',');
    expect(Object.keys(document).sort()).toEqual(['url', ...asked].sort());
    if (document.screenshot) expect(Buffer.from(document.screenshot.split(',')[1], 'base64').subarray(1, 4).toString()).toBe('PNG');
    for (const link of document.links ?? []) expect(new URL(link).host).toBe(new URL(String(query.url)).host);
    if (document.metadata) expect(document.metadata).toMatchObject({ source_url: query.url, url: query.url, status_code: 200 });
  });

  it('keeps page chrome only without only_main_content, and a PDF has empty Markdown with pdf_parse=false', async () => {
    const main = await fetchData('scrapeWebPage', { url: 'https://example.com/a', formats: 'html' });
    const whole = await fetchData('scrapeWebPage', { url: 'https://example.com/a', formats: 'html', only_main_content: false });
    expect(main.html).not.toContain('<nav>');
    expect(whole.html).toContain('<nav>');
    const pdf = await fetchData('scrapeWebPage', { url: 'https://example.com/r.pdf', pdf_parse: false });
    expect(pdf.markdown).toBe('');
    expect(pdf.metadata.content_type).toBe('application/pdf');
  });
});

describe('sandbox search', () => {
  it.each(queriesByOperation.searchWeb)('groups by source, ranks, and honours limit and filters: %j', async (query) => {
    const { results } = await fetchData('searchWeb', query);
    const sources = String(query.sources ?? 'web').split(',');
    expect([...new Set(results.map((r: Data) => r.source))]).toEqual(sources);
    for (const source of sources) {
      const ranks = results.filter((r: Data) => r.source === source).map((r: Data) => r.position);
      expect(ranks).toEqual(ranks.map((_: number, i: number) => i + 1));
      expect(ranks.length).toBeLessThanOrEqual(Number(query.limit ?? 5));
    }
    for (const result of results) {
      const host = new URL(result.url).hostname;
      expect(result.markdown !== null).toBe(query.include_content === true);
      if (query.include_domains) expect(String(query.include_domains).split(',')).toContain(host);
      if (query.exclude_domains) for (const domain of String(query.exclude_domains).split(',')) expect(host === domain || host.endsWith(`.${domain}`)).toBe(false);
      if (query.time_range) expect(result.published_at).not.toBeNull();
    }
    if (query.sort_by_date) {
      const dates = results.filter((r: Data) => r.source === sources[0]).map((r: Data) => r.published_at ?? '');
      expect(dates).toEqual([...dates].sort().reverse());
    }
  });
});

describe('sandbox search of a host no URL parser takes', () => {
  it('answers include_domains=a.0 with include_content: its results, markdown null as a page that cannot be read (it threw, a 500)', async () => {
    const { results } = await fetchData('searchWeb', { query: 'x', include_domains: 'a.0', include_content: 'true' });
    expect(results.length).toBeGreaterThan(0);
    for (const result of results) expect([result.url.startsWith('https://a.0/'), result.markdown]).toEqual([true, null]);
  });
});

describe('sandbox map', () => {
  it.each(queriesByOperation.mapWebsite)('stays on the site and honours limit, search and sitemap: %j', async (query) => {
    const { url, links } = await fetchData('mapWebsite', query);
    expect(url).toBe(query.url);
    expect(links.length).toBeLessThanOrEqual(Number(query.limit ?? 1000));
    expect(new Set(links.map((l: Data) => l.url)).size).toBe(links.length);
    const host = new URL(String(query.url)).hostname.replace(/^www\./, '');
    for (const link of links) {
      const linkHost = new URL(link.url).hostname;
      expect(query.include_subdomains ? linkHost.endsWith(host) : linkHost === new URL(String(query.url)).hostname).toBe(true);
      if (query.ignore_query_parameters !== false) expect(link.url).not.toContain('?');
      if (query.sitemap === 'only') expect(link.title).toBeNull();
      if (query.search) expect(`${link.url} ${link.title ?? ''}`.toLowerCase()).toContain(String(query.search).toLowerCase());
    }
  });

  it('finds pages for a search', async () => {
    expect((await fetchData('mapWebsite', { url: 'https://docs.example.com', search: 'authentication' })).links.length).toBeGreaterThan(0);
  });
});

describe('sandbox extract', () => {
  const ajv = (addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020)(new Ajv2020({ strict: false }));
  it.each(queriesByOperation.extractWebData)('follows the schema, or answers the prompt: %j', async (query) => {
    const { extracted } = await fetchData('extractWebData', query);
    if (query.schema) expect(ajv.validate(JSON.parse(String(query.schema)), extracted) ? [] : ajv.errors).toEqual([]);
    else expect(extracted).toEqual({ answer: expect.any(String) });
  });

  it.each([
    ['both schema and prompt', { url: 'https://example.com', schema: '{"type":"object"}', prompt: 'x' }],
    ['neither schema nor prompt', { url: 'https://example.com' }],
    ['a schema that is not JSON', { url: 'https://example.com', schema: '{nope' }],
    ['a schema whose root is not an object', { url: 'https://example.com', schema: '{"type":"array"}' }],
  ])('rejects %s as invalid_parameters', async (_name, query) => {
    expect(await errorCode(() => fetchData('extractWebData', query))).toBe('invalid_parameters');
  });
});

describe('sandbox collection videos', () => {
  it.each([1, 7, 20, 100])('pages through a whole collection with limit %i, next_cursor null on the last page', async (limit) => {
    const seen: string[] = [];
    let query: Query = { collection_id: 'weeknight-dinners', limit };
    for (let page = 0; page < 200; page++) {
      const data = await fetchData('listCollectionVideos', query);
      expectValid('ShortVideoCollectionVideos', data);
      expect(data.videos.length).toBeLessThanOrEqual(limit);
      seen.push(...data.videos.map((video: Data) => video.id));
      if (data.next_cursor === null) break;
      expect(data.videos.length).toBe(limit);
      query = { ...query, cursor: data.next_cursor };
    }
    const { collection } = await fetchData('listCollectionVideos', { collection_id: 'weeknight-dinners' });
    if (collection.video_count !== null) expect(seen.length).toBe(collection.video_count);
  });

  it('rejects a cursor issued for other parameters', async () => {
    const { next_cursor } = await fetchData('listCollectionVideos', { collection_id: 'abc', limit: 2 });
    expect(await errorCode(() => fetchData('listCollectionVideos', { collection_id: 'abc', limit: 3, cursor: next_cursor }))).toBe('invalid_parameters');
  });
});

describe('sandbox price history', () => {
  it.each(queriesByOperation.getPriceHistory)('gives realistic OHLC points, oldest first, one per interval: %j', async (query) => {
    const history = await fetchData('getPriceHistory', query);
    expect(history.symbol).toBe(String(query.symbol).toUpperCase());
    expect(history.interval).toBe(query.interval ?? '1d');
    const stamps = history.points.map((p: Data) => p.timestamp);
    expect(stamps).toEqual([...new Set(stamps)].sort());
    for (const p of history.points) {
      expect(p.high).toBeGreaterThanOrEqual(Math.max(p.open, p.close));
      expect(p.low).toBeLessThanOrEqual(Math.min(p.open, p.close));
      if (query.start) expect(p.timestamp.slice(0, 10) >= String(query.start)).toBe(true);
      if (query.end) expect(p.timestamp.slice(0, 10) <= String(query.end)).toBe(true);
    }
    const months = history.points.map((p: Data) => p.timestamp.slice(0, 7));
    if (query.interval === '1mo') expect(new Set(months).size).toBe(months.length);
  });

  it('answers a period of about a month by default, and a weekend with no point', async () => {
    expect((await fetchData('getPriceHistory', { symbol: 'AAPL' })).points.length).toBeGreaterThanOrEqual(20);
    expect((await fetchData('getPriceHistory', { symbol: 'AAPL', start: '2026-06-06', end: '2026-06-07' })).points).toEqual([]);
  });

  it.each([
    { symbol: 'AAPL', range: '1mo', start: '2026-01-01' },
    { symbol: 'AAPL', end: '2026-01-01' },
    { symbol: 'AAPL', start: '2026-02-01', end: '2026-01-01' },
    { symbol: 'AAPL', start: '2027-06-01' },
  ])('rejects %j as invalid_parameters', async (query) => {
    expect(await errorCode(() => fetchData('getPriceHistory', query))).toBe('invalid_parameters');
  });
});

describe('sandbox social events', () => {
  it.each(['upcoming', 'past', 'all'])('lists %s events in three pages of up to 20, the last with next_cursor null', async (time) => {
    let query: Query = { url: 'https://socialnet.example/kulturbrauerei.berlin', time };
    const pages: Data[] = [];
    for (let page = 0; page < 5; page++) {
      const data = await fetchData('listSocialEvents', query);
      expectValid('SocialEventsPage', data);
      pages.push(data);
      if (data.next_cursor === null) break;
      query = { ...query, cursor: data.next_cursor };
    }
    expect(pages.map((page) => page.next_cursor === null)).toEqual([false, false, true]);
    const starts = pages.flatMap((page) => page.events.map((event: Data) => event.start_time));
    expect(starts).toEqual(time === 'upcoming' ? [...starts].sort() : [...starts].sort().reverse());
  });

  it.each(queriesByOperation.listSocialEvents)('honours include, since and until: %j', async (query) => {
    const { events } = await fetchData('listSocialEvents', query);
    const include = String(query.include ?? '').split(',');
    for (const event of events) {
      for (const field of ['description', 'location', 'counts']) if (!include.includes(field)) expect(event[field]).toBeNull();
      if (query.since) expect(event.start_time.slice(0, 10) >= String(query.since)).toBe(true);
      if (query.until) expect(event.start_time.slice(0, 10) <= String(query.until)).toBe(true);
    }
  });

  it('rejects until before since, and a cursor of another list', async () => {
    const url = 'https://socialnet.example/x';
    expect(await errorCode(() => fetchData('listSocialEvents', { url, since: '2026-05-02', until: '2026-05-01' }))).toBe('invalid_parameters');
    const { next_cursor } = await fetchData('listSocialEvents', { url });
    expect(await errorCode(() => fetchData('listSocialEvents', { url, time: 'past', cursor: next_cursor }))).toBe('invalid_parameters');
  });
});

describe('sandbox magic failures', () => {
  const statuses = [[400, 'upstream_rejected'], [403, 'provider_policy_denied'], [404, 'upstream_not_found'], [502, 'upstream_failed'], [504, 'upstream_timeout']] as const;
  const cases = statuses.flatMap(([status, code]) => [
    ['scrapeWebPage', { url: `https://fail-${status}.sandbox.test/page` }, code],
    ['mapWebsite', { url: `https://fail-${status}.sandbox.test` }, code],
    ['extractWebData', { url: `http://fail-${status}.sandbox.test/x`, prompt: 'anything' }, code],
    ['searchWeb', { query: `fail-${status}` }, code],
    ['listSocialEvents', { url: `https://fail-${status}.sandbox.test/page` }, code],
    ['listCollectionVideos', { collection_id: `fail-${status}` }, code],
    ['getPriceHistory', { symbol: `FAIL${status}` }, code],
    ['getPriceHistory', { symbol: `fail-${status}` }, code],
    ['getMicroblogPost', { post_id: `4000000000000000${status}` }, code],
  ] as const);

  it.each(cases)('%s %j fails with %s', async (operationId, query, code) => {
    expect(await errorCode(() => fetchData(operationId, query))).toBe(code);
  });

  it.each(statuses)('the job helpers fail for fail-%i.sandbox.test with %s', async (status, code) => {
    const url = `https://fail-${status}.sandbox.test/`;
    expect(await errorCode(() => sandboxDocument(url, ['markdown'], { onlyMainContent: true }))).toBe(code);
    expect(await errorCode(() => sandboxCrawlUrls(url, 5, 1))).toBe(code);
    expect(await errorCode(() => sandboxAgentAnswer(url, 'What?', 'spark-1-mini'))).toBe(code);
  });
});

describe('sandbox job helpers', () => {
  const formatSets = [['markdown'], ['markdown', 'metadata'], ['html', 'links'], ['raw_html', 'screenshot'], ['markdown', 'html', 'raw_html', 'links', 'metadata', 'screenshot']];
  const urls = ['https://example.com/', 'https://example.com/blog/', 'https://docs.example.org/guides/start', 'http://shop.example.net/a/b?x=1'];

  it.each(urls.flatMap((url) => formatSets.map((formats) => [url, formats] as const)))('sandboxDocument(%s, %j) is a WebDocument with exactly those formats', (url, formats) => {
    const document = sandboxDocument(url, [...formats], { onlyMainContent: formats.length % 2 === 0 });
    expectValid('WebDocument', document);
    expect(Object.keys(document).sort()).toEqual(['url', ...formats].sort());
    for (const link of document.links ?? []) expect(new URL(link).host).toBe(new URL(url).host);
    expect(sandboxDocument(url, [...formats], { onlyMainContent: formats.length % 2 === 0 })).toEqual(document);
  });

  it.each(urls.flatMap((url) => [[url, 1, 3], [url, 10, 0], [url, 10, 1], [url, 25, 2], [url, 300, 10]] as const))('sandboxCrawlUrls(%s, %i, %i) stays below the start URL', (url, limit, maxDepth) => {
    const crawled = sandboxCrawlUrls(url, limit, maxDepth);
    const start = new URL(url);
    const base = start.pathname.endsWith('/') ? start.pathname : `${start.pathname}/`;
    expect(crawled[0]).toBe(url);
    expect(crawled.length).toBe(maxDepth === 0 ? 1 : Math.min(limit, crawled.length));
    expect(crawled.length).toBeLessThanOrEqual(limit);
    expect(new Set(crawled).size).toBe(crawled.length);
    for (const crawledUrl of crawled.slice(1)) {
      const { host, pathname } = new URL(crawledUrl);
      expect(host).toBe(start.host);
      expect(pathname.startsWith(base)).toBe(true);
      expect(pathname.slice(base.length).split('/').length).toBeLessThanOrEqual(maxDepth);
    }
    expect(sandboxCrawlUrls(url, limit, maxDepth)).toEqual(crawled);
  });

  it.each(urls.flatMap((url) => [
    [url, 'What does the Team plan cost?', 'spark-1-mini'],
    [url, 'Return a JSON object with the fields plan and price.', 'spark-1-pro'],
    [url, 'Give me structured data about the company', 'spark-1-mini'],
  ] as const))('sandboxAgentAnswer(%s, %s, %s) is an AgentAnswer on the start host', (url, prompt, model) => {
    const answer = sandboxAgentAnswer(url, prompt, model);
    expectValid('AgentAnswer', answer);
    for (const source of answer.sources) expect(new URL(source).host).toBe(new URL(url).host);
    if (prompt.includes('fields plan and price')) expect(Object.keys(answer.data ?? {})).toEqual(['plan', 'price']);
    if (prompt.startsWith('What')) expect(answer.data).toBeNull();
    expect(sandboxAgentAnswer(url, prompt, model)).toEqual(answer);
  });
});
