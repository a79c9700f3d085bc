/**
 * `web/search` on a SearXNG instance: `GET {SEARXNG_URL}/search?q=…&format=json`, one search per
 * source (web, news, images), more pages while the kept results are fewer than `limit`.
 */
import { UpstreamClient } from '../../upstream/upstream-client.ts';
import { upstreamFailure } from '../../upstream/upstream-failure.ts';
import { queryWithSites, searchRequest, type SearchRequest, type SearchSource } from '../search/search-request.ts';
import { collectPages, withContent, type FoundResult } from '../search/search-results.ts';
import { assertSearchCall, type SearchProviderDeps } from '../search/search-provider.ts';
import type { DataProvider, ProviderCall } from '../types.ts';
import type { SearxngConfig } from './config.ts';

export { searxngConfig, type SearxngConfig } from './config.ts';

export const SEARXNG_NAME = 'SearXNG';
const DEFAULT_LIMITS = { timeoutMs: 15_000, maxResponseBytes: 5 * 1024 * 1024, maxInFlight: 4 };
/** Pages asked per source at most, while filters leave fewer results than `limit`. */
const MAX_PAGES = 3;

/** SearXNG's category for each source, and for `web` with `categories` (`pdf` has none: the answer is filtered). */
const SOURCE_CATEGORY: Record<SearchSource, string> = { web: 'general', news: 'news', images: 'images' };
const CATEGORY_OF = { github: 'it', research: 'science', pdf: 'general' } as const;
/** SearXNG knows day, week, month and year; an hour asks for a day and the answer is filtered by date. */
const TIME_RANGE = { hour: 'day', day: 'day', week: 'week', month: 'month', year: 'year' } as const;

/** The fields of a SearXNG JSON answer this adapter reads (https://docs.searxng.org/dev/search_api.html). */
interface SearxngAnswer {
  results?: SearxngResult[];
  unresponsive_engines?: [string, string][];
}
interface SearxngResult {
  url?: string;
  title?: string;
  content?: string;
  publishedDate?: string | null;
  img_src?: string;
  thumbnail_src?: string;
  thumbnail?: string;
}

export function createSearxngProvider(config: SearxngConfig, deps: SearchProviderDeps): DataProvider {
  const client = new UpstreamClient({ name: SEARXNG_NAME, baseUrl: config.url, ...DEFAULT_LIMITS, ...deps.limits }, deps.logger);

  async function page(request: SearchRequest, source: SearchSource, pageno: number, signal: AbortSignal): Promise<SearxngResult[]> {
    const answer = await client.request({
      method: 'GET',
      path: '/search',
      query: {
        q: queryWithSites(request),
        format: 'json',
        categories: categoriesOf(request, source),
        pageno: pageno === 1 ? undefined : pageno,
        time_range: request.timeRange === undefined ? undefined : TIME_RANGE[request.timeRange],
      },
      signal,
    });
    const body = answer.body as SearxngAnswer | null;
    if (body === null || typeof body !== 'object' || !Array.isArray(body.results)) {
      throw upstreamFailure(SEARXNG_NAME, { kind: 'unreadable', what: 'JSON without a results list' }, deps.logger);
    }
    const unresponsive = Array.isArray(body.unresponsive_engines) ? body.unresponsive_engines : [];
    if (pageno === 1 && body.results.length === 0 && unresponsive.length > 0) {
      const engines = unresponsive.map((entry) => (Array.isArray(entry) ? `${entry[0]} (${entry[1]})` : String(entry))).join(', ');
      throw upstreamFailure(SEARXNG_NAME, { kind: 'unreadable', what: `no results because its engines did not respond: ${engines}` }, deps.logger);
    }
    return body.results;
  }

  return {
    name: 'searxng',
    close: () => client.close(),
    async fetch(call: ProviderCall): Promise<Record<string, unknown>> {
      assertSearchCall('searxng', call);
      const request = searchRequest(call.query);
      const now = (deps.now ?? Date.now)();
      const bySource = await Promise.all(request.sources.map((source) => collectPages(
        async (index) => ({ found: (await page(request, source, index + 1, call.signal)).map(foundResult), more: true }),
        source, request, now, MAX_PAGES,
      )));
      return { query: request.query, results: await withContent(bySource.flat(), request, deps.readPage, call.signal) };
    },
  };
}

function categoriesOf(request: SearchRequest, source: SearchSource): string {
  if (source !== 'web' || request.categories.length === 0) return SOURCE_CATEGORY[source];
  return [...new Set(request.categories.map((category) => CATEGORY_OF[category]))].join(',');
}

function foundResult(result: SearxngResult): FoundResult {
  return {
    url: result.url,
    title: result.title,
    description: result.content,
    publishedAt: result.publishedDate,
    imageUrl: result.img_src || result.thumbnail_src || result.thumbnail,
  };
}
