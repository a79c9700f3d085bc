/** A `web/search` request as every search adapter reads it: the contract's parameters, typed, with their defaults. */
import type { components } from '../../../generated/types.ts';

export type SearchSource = components['schemas']['SearchResult']['source'];
export type SearchCategory = 'github' | 'research' | 'pdf';
export type TimeRange = 'hour' | 'day' | 'week' | 'month' | 'year';

export interface SearchRequest {
  query: string;
  /** In the order asked, each once. */
  sources: SearchSource[];
  categories: SearchCategory[];
  /** Results per source. */
  limit: number;
  /** Upper case (`DE`). */
  country: string | undefined;
  location: string | undefined;
  timeRange: TimeRange | undefined;
  sortByDate: boolean;
  includeDomains: string[];
  excludeDomains: string[];
  includeContent: boolean;
}

const DEFAULT_LIMIT = 5;

/** The request from the query as the contract validated it (`include_domains` with `exclude_domains` was refused before). */
export function searchRequest(query: Record<string, unknown>): SearchRequest {
  return {
    query: String(query.query ?? ''),
    sources: list(query.sources, 'web') as SearchSource[],
    categories: list(query.categories, '') as SearchCategory[],
    limit: typeof query.limit === 'number' ? query.limit : Number(query.limit ?? DEFAULT_LIMIT) || DEFAULT_LIMIT,
    country: text(query.country)?.toUpperCase(),
    location: text(query.location),
    timeRange: text(query.time_range) as TimeRange | undefined,
    sortByDate: query.sort_by_date === true || query.sort_by_date === 'true',
    includeDomains: list(query.include_domains, '').map((domain) => domain.toLowerCase()),
    excludeDomains: list(query.exclude_domains, '').map((domain) => domain.toLowerCase()),
    includeContent: query.include_content === true || query.include_content === 'true',
  };
}

function text(value: unknown): string | undefined {
  return value === undefined || value === null || value === '' ? undefined : String(value);
}

function list(value: unknown, fallback: string): string[] {
  return [...new Set((text(value) ?? fallback).split(',').map((item) => item.trim()).filter(Boolean))];
}

/**
 * The query with the domain filters as `site:` operators, for upstreams without a domain filter of
 * their own (the answer is filtered too, since not every engine honours them).
 */
export function queryWithSites(request: SearchRequest): string {
  if (request.includeDomains.length > 0) {
    const sites = request.includeDomains.map((domain) => `site:${domain}`);
    return `${request.query} ${sites.length === 1 ? sites[0] : `(${sites.join(' OR ')})`}`;
  }
  return [request.query, ...request.excludeDomains.map((domain) => `-site:${domain}`)].join(' ');
}
