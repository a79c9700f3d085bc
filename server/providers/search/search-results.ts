/**
 * What every search adapter does with its upstream's results: keep only those the request allows
 * (domains, categories, time range), order them, number them per source, and read their pages when
 * `include_content` asks. Fields come from the upstream or are null: never invented.
 */
import type { components } from '../../../generated/types.ts';
import type { ReadPage } from '../read-page.ts';
import type { SearchCategory, SearchRequest, SearchSource, TimeRange } from './search-request.ts';

type SearchResult = components['schemas']['SearchResult'];

/** One result as the upstream gave it, mapped to the contract's names but not yet checked. */
export interface FoundResult {
  url: unknown;
  title: unknown;
  description: unknown;
  publishedAt: unknown;
  imageUrl: unknown;
  /** The kind the upstream itself gives the result (`github`, `research`, `pdf`), trusted over the host rules. */
  category?: unknown;
}

/** How long reading one result page for `include_content` may take. */
export const RESULT_PAGE_TIMEOUT_MS = 15_000;

const HOUR = 3_600_000;
const TIME_RANGE_MS: Record<TimeRange, number> = { hour: HOUR, day: 24 * HOUR, week: 7 * 24 * HOUR, month: 31 * 24 * HOUR, year: 366 * 24 * HOUR };

/** Hosts of papers and preprints, for the `research` category. */
const RESEARCH_HOSTS = [
  'arxiv.org', 'biorxiv.org', 'medrxiv.org', 'ssrn.com', 'doi.org', 'semanticscholar.org', 'openreview.net', 'aclanthology.org',
  'ncbi.nlm.nih.gov', 'pubmed.ncbi.nlm.nih.gov', 'dl.acm.org', 'ieeexplore.ieee.org', 'link.springer.com', 'sciencedirect.com',
  'nature.com', 'science.org', 'researchgate.net', 'jstor.org', 'plos.org', 'papers.nips.cc', 'proceedings.mlr.press', 'hal.science',
];

/** The results of one source: checked, filtered, ordered, cut at `limit` and numbered from 1. */
export function keptResults(found: readonly FoundResult[], source: SearchSource, request: SearchRequest, now: number = Date.now()): SearchResult[] {
  const seen = new Set<string>();
  const results: SearchResult[] = [];
  for (const item of found) {
    const url = httpUrl(item.url);
    if (url === null || seen.has(url) || !allowedHost(new URL(url).hostname, request)) continue;
    const result: SearchResult = {
      url,
      title: typeof item.title === 'string' ? item.title : '',
      description: typeof item.description === 'string' && item.description.trim() !== '' ? item.description : null,
      source,
      position: 0,
      published_at: publishedAt(item.publishedAt),
      image_url: source === 'images' ? httpUrl(item.imageUrl) : null,
      markdown: null,
    };
    if (!ofCategories(result.url, item.category, request.categories) || !withinTimeRange(result.published_at, request.timeRange, now)) continue;
    seen.add(url);
    results.push(result);
  }
  if (request.sortByDate) results.sort(newestFirst);
  return results.slice(0, request.limit).map((result, index) => ({ ...result, position: index + 1 }));
}

/** With `include_content`, each result's page as Markdown, its main content as `web/scrape` gives it (a few at a time); a page that cannot be read leaves it null. */
export async function withContent(results: SearchResult[], request: SearchRequest, readPage: ReadPage, signal: AbortSignal, concurrency = 4): Promise<SearchResult[]> {
  if (!request.includeContent) return results;
  const read = [...results];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < read.length) {
      const index = next++;
      const result = read[index]!;
      const markdown = await readPage(result.url, { onlyMainContent: true, timeoutMs: RESULT_PAGE_TIMEOUT_MS }, signal).then((page) => page.markdown, () => null);
      read[index] = { ...result, markdown };
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, read.length) }, worker));
  signal.throwIfAborted();
  return read;
}

/** An absolute http(s) URL, or null. */
export function httpUrl(value: unknown): string | null {
  if (typeof value !== 'string' || value === '') return null;
  const absolute = value.startsWith('//') ? `https:${value}` : value;
  if (!URL.canParse(absolute)) return null;
  const url = new URL(absolute);
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
}

/** An upstream's date as RFC 3339 UTC (`2026-11-02T14:30:00Z`); a date without a zone is read as UTC; relative ages (`2 days ago`) are null. */
export function publishedAt(value: unknown): string | null {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}/.test(value.trim())) return null;
  const text = value.trim();
  const zoned = /(Z|[+-]\d{2}:?\d{2})$/i.test(text) || !text.includes('T') ? text : `${text}Z`;
  const time = Date.parse(text.includes('T') ? zoned : `${text}T00:00:00Z`);
  return Number.isNaN(time) ? null : new Date(time).toISOString().replace(/\.000Z$/, 'Z');
}

function onHost(host: string, domain: string): boolean {
  return host === domain || host.endsWith(`.${domain}`);
}

function allowedHost(host: string, request: SearchRequest): boolean {
  const lower = host.toLowerCase();
  if (request.includeDomains.length > 0) return request.includeDomains.some((domain) => onHost(lower, domain));
  return !request.excludeDomains.some((domain) => onHost(lower, domain));
}

function ofCategories(url: string, upstreamCategory: unknown, categories: readonly SearchCategory[]): boolean {
  if (categories.length === 0) return true;
  if (categories.includes(upstreamCategory as SearchCategory)) return true;
  const { hostname, pathname } = new URL(url);
  return categories.some((category) => {
    if (category === 'github') return onHost(hostname, 'github.com');
    if (category === 'pdf') return pathname.toLowerCase().endsWith('.pdf') || (onHost(hostname, 'arxiv.org') && pathname.startsWith('/pdf/'));
    return RESEARCH_HOSTS.some((domain) => onHost(hostname, domain));
  });
}

function withinTimeRange(published: string | null, range: TimeRange | undefined, now: number): boolean {
  // The upstream applied the range; a result it kept without a date cannot be checked, so it stays.
  if (range === undefined || published === null) return true;
  return Date.parse(published) >= now - TIME_RANGE_MS[range];
}

function newestFirst(a: SearchResult, b: SearchResult): number {
  if (a.published_at === b.published_at) return 0;
  if (a.published_at === null) return 1;
  if (b.published_at === null) return -1;
  return a.published_at < b.published_at ? 1 : -1;
}

/** One page of an upstream's results for one source, and whether it says there are more. */
export interface FoundPage {
  found: FoundResult[];
  more: boolean;
}

/**
 * The kept results of one source, asking page after page (`page(0)`, `page(1)`, …, at most
 * `maxPages`) while the filters leave fewer than `limit` and the upstream has more.
 */
export async function collectPages(page: (index: number) => Promise<FoundPage>, source: SearchSource, request: SearchRequest, now: number, maxPages: number): Promise<SearchResult[]> {
  const found: FoundResult[] = [];
  let kept: SearchResult[] = [];
  for (let index = 0; index < maxPages; index++) {
    const next = await page(index);
    found.push(...next.found);
    kept = keptResults(found, source, request, now);
    if (!next.more || next.found.length === 0 || kept.length >= request.limit) break;
  }
  return kept;
}
