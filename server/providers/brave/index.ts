/**
 * `web/search` on the Brave Search API: `GET /res/v1/web/search` for web and news (one call per
 * source, `result_filter` choosing `web.results[]` or `news.results[]`) and `GET /res/v1/images/search`
 * for images, with the key in `X-Subscription-Token`.
 */
import { UpstreamClient } from '../../upstream/upstream-client.ts';
import { upstreamFailure } from '../../upstream/upstream-failure.ts';
import { queryWithSites, searchRequest, type SearchRequest, type SearchSource } from '../search/search-request.ts';
import { assertSearchCall, type SearchProviderDeps } from '../search/search-provider.ts';
import { collectPages, withContent, type FoundPage } from '../search/search-results.ts';
import type { DataProvider, ProviderCall } from '../types.ts';
import type { BraveConfig } from './config.ts';

export { braveConfig, BRAVE_SEARCH_DEFAULT_URL, type BraveConfig } from './config.ts';

export const BRAVE_NAME = 'Brave Search';
const DEFAULT_LIMITS = { timeoutMs: 15_000, maxResponseBytes: 5 * 1024 * 1024, maxInFlight: 4 };
/** Brave's largest `count` for web search, and its largest `offset` (pages of `count`). */
const MAX_COUNT = 20;
const MAX_PAGES = 3;
/** Brave's largest `count` for image search. */
const MAX_IMAGE_COUNT = 100;
/** Brave's freshness: past day, week, month, year; an hour asks for a day and the answer is filtered by date. */
const FRESHNESS = { hour: 'pd', day: 'pd', week: 'pw', month: 'pm', year: 'py' } as const;

/** The fields of Brave's answers this adapter reads (https://api-dashboard.search.brave.com/app/documentation/web-search/responses). */
interface BraveResult {
  title?: string;
  url?: string;
  description?: string;
  page_age?: string;
}
interface BraveWebAnswer {
  query?: { more_results_available?: boolean };
  web?: { results?: BraveResult[] };
  news?: { results?: BraveResult[] };
}
interface BraveImageAnswer {
  results?: { title?: string; url?: string; properties?: { url?: string } }[];
}

export function createBraveProvider(config: BraveConfig, deps: SearchProviderDeps): DataProvider {
  const client = new UpstreamClient(
    { name: BRAVE_NAME, baseUrl: config.url, ...DEFAULT_LIMITS, ...deps.limits, headers: { 'x-subscription-token': config.apiKey } },
    deps.logger,
  );

  function unreadable(what: string): Error {
    return upstreamFailure(BRAVE_NAME, { kind: 'unreadable', what }, deps.logger);
  }

  async function webOrNews(request: SearchRequest, source: 'web' | 'news', index: number, signal: AbortSignal): Promise<FoundPage> {
    const answer = await client.request({
      method: 'GET',
      path: '/res/v1/web/search',
      query: {
        q: queryWithSites(request),
        count: Math.min(request.limit, MAX_COUNT),
        offset: index === 0 ? undefined : index,
        country: request.country,
        freshness: request.timeRange === undefined ? undefined : FRESHNESS[request.timeRange],
        result_filter: source,
        text_decorations: false,
      },
      signal,
    });
    const body = answer.body as BraveWebAnswer | null;
    if (body === null || typeof body !== 'object') throw unreadable('JSON that is not a search answer');
    const results = body[source]?.results ?? [];
    if (!Array.isArray(results)) throw unreadable(`JSON whose ${source}.results is not a list`);
    const found = results.map((result) => ({ url: result.url, title: result.title, description: result.description, publishedAt: result.page_age, imageUrl: null }));
    return { found, more: body.query?.more_results_available === true };
  }

  async function images(request: SearchRequest, signal: AbortSignal): Promise<FoundPage> {
    const answer = await client.request({
      method: 'GET',
      path: '/res/v1/images/search',
      query: { q: queryWithSites(request), count: Math.min(request.limit * 2, MAX_IMAGE_COUNT), country: request.country },
      signal,
    });
    const body = answer.body as BraveImageAnswer | null;
    if (body === null || typeof body !== 'object' || !Array.isArray(body.results)) throw unreadable('JSON without a results list');
    const found = body.results.map((result) => ({ url: result.url, title: result.title, description: null, publishedAt: null, imageUrl: result.properties?.url }));
    return { found, more: false };
  }

  return {
    name: 'brave',
    close: () => client.close(),
    async fetch(call: ProviderCall): Promise<Record<string, unknown>> {
      assertSearchCall('brave', call);
      const request = searchRequest(call.query);
      const now = (deps.now ?? Date.now)();
      const bySource = await Promise.all(request.sources.map((source: SearchSource) => collectPages(
        (index) => (source === 'images' ? images(request, call.signal) : webOrNews(request, source, index, call.signal)),
        source, request, now, source === 'images' ? 1 : MAX_PAGES,
      )));
      return { query: request.query, results: await withContent(bySource.flat(), request, deps.readPage, call.signal) };
    },
  };
}
