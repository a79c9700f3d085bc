/**
 * `web/search` on Firecrawl (hosted or self-hosted): one `POST /v2/search` with every source asked,
 * answered as `data.web[]`, `data.news[]`, `data.images[]`.
 */
import { UpstreamClient } from '../../upstream/upstream-client.ts';
import { upstreamFailure } from '../../upstream/upstream-failure.ts';
import { queryWithSites, searchRequest, type SearchRequest } from '../search/search-request.ts';
import { assertSearchCall, type SearchProviderDeps } from '../search/search-provider.ts';
import { keptResults, withContent, type FoundResult } from '../search/search-results.ts';
import type { DataProvider, ProviderCall } from '../types.ts';
import type { FirecrawlConfig } from './config.ts';

export { firecrawlConfig, FIRECRAWL_DEFAULT_URL, type FirecrawlConfig } from './config.ts';

export const FIRECRAWL_NAME = 'Firecrawl';
/** Firecrawl searches, then answers: its own bound is 60 s by default, so ours is a little longer. */
const DEFAULT_LIMITS = { timeoutMs: 65_000, maxResponseBytes: 10 * 1024 * 1024, maxInFlight: 4 };
/** Firecrawl's largest `limit`. */
const MAX_LIMIT = 100;
/** When the answer is filtered (domains, categories), ask this many times `limit` so enough remain. */
const FILTER_HEADROOM = 3;
/** Firecrawl's `tbs` (Google's time-based search): past hour, day, week, month, year. */
const TBS_RANGE = { hour: 'qdr:h', day: 'qdr:d', week: 'qdr:w', month: 'qdr:m', year: 'qdr:y' } as const;

/** The fields of Firecrawl's answer this adapter reads (https://docs.firecrawl.dev/api-reference/endpoint/search). */
interface FirecrawlAnswer {
  success?: boolean;
  error?: string;
  data?: {
    web?: { url?: string; title?: string; description?: string; category?: string }[];
    news?: { url?: string; title?: string; snippet?: string; date?: string }[];
    images?: { url?: string; title?: string; imageUrl?: string }[];
  };
}

export function createFirecrawlProvider(config: FirecrawlConfig, deps: SearchProviderDeps): DataProvider {
  const client = new UpstreamClient(
    { name: FIRECRAWL_NAME, baseUrl: config.url, ...DEFAULT_LIMITS, ...deps.limits, headers: config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {} },
    deps.logger,
  );

  return {
    name: 'firecrawl',
    close: () => client.close(),
    async fetch(call: ProviderCall): Promise<Record<string, unknown>> {
      assertSearchCall('firecrawl', call);
      const request = searchRequest(call.query);
      const answer = await client.request({ method: 'POST', path: '/v2/search', body: searchBody(request), signal: call.signal });
      const body = answer.body as FirecrawlAnswer | null;
      if (body === null || typeof body !== 'object' || body.success === false || typeof body.data !== 'object' || body.data === null) {
        throw upstreamFailure(FIRECRAWL_NAME, { kind: 'unreadable', what: body?.success === false ? 'success: false' : 'JSON without data' }, deps.logger);
      }
      const data = body.data;
      const found: Record<'web' | 'news' | 'images', FoundResult[]> = {
        web: listOf(data.web).map((result) => ({ url: result.url, title: result.title, description: result.description, publishedAt: null, imageUrl: null, category: result.category })),
        news: listOf(data.news).map((result) => ({ url: result.url, title: result.title, description: result.snippet, publishedAt: result.date, imageUrl: null })),
        images: listOf(data.images).map((result) => ({ url: result.url, title: result.title, description: null, publishedAt: null, imageUrl: result.imageUrl })),
      };
      const now = (deps.now ?? Date.now)();
      const results = request.sources.flatMap((source) => keptResults(found[source], source, request, now));
      return { query: request.query, results: await withContent(results, request, deps.readPage, call.signal) };
    },
  };
}

function listOf<T>(value: T[] | undefined): T[] {
  return Array.isArray(value) ? value : [];
}

/** The body of `POST /v2/search` for the request. */
export function searchBody(request: SearchRequest): Record<string, unknown> {
  const filtered = request.includeDomains.length > 0 || request.excludeDomains.length > 0 || request.categories.length > 0;
  const tbs = [request.sortByDate ? 'sbd:1' : undefined, request.timeRange === undefined ? undefined : TBS_RANGE[request.timeRange]].filter(Boolean).join(',');
  return {
    query: queryWithSites(request),
    limit: Math.min(MAX_LIMIT, filtered ? request.limit * FILTER_HEADROOM : request.limit),
    sources: request.sources.map((type) => ({ type })),
    ...(request.categories.length > 0 ? { categories: request.categories.map((type) => ({ type })) } : {}),
    ...(tbs ? { tbs } : {}),
    ...(request.country ? { country: request.country } : {}),
    ...(request.location ? { location: request.location } : {}),
  };
}
