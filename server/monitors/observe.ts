/**
 * What a monitor check reads, on the provider the registry routes for its mode: the page's
 * Markdown and HTTP status (mode scrape, the provider's `pages`), or the search's results as a
 * Markdown list, one line per result with its title, URL and snippet (mode search, the provider's
 * `fetch` of `searchWeb`). A failure is a ProviderError with the upstream's code; a search answer
 * without a list of results is one too, never an empty "no results" check.
 */
import { monitorProviderMissing, monitorSearchUnreadable } from '../../lib/error-messages.ts';
import type { components } from '../../generated/types.ts';
import { ProviderError, type DataProvider } from '../providers/types.ts';
import type { Monitor } from '../store/monitors.ts';

type SearchResult = components['schemas']['SearchResult'];

/** The results a search monitor compares, at most. */
export const MONITOR_SEARCH_LIMIT = 10;

export interface Observation {
  content: string;
  statusCode: number | null;
}

/** One line per result: `- [title](url): snippet` (no snippet: no colon). */
export function searchResultsMarkdown(results: readonly Pick<SearchResult, 'title' | 'url' | 'description'>[]): string {
  return results.map((result) => `- [${result.title}](${result.url})${result.description ? `: ${result.description}` : ''}`).join('\n');
}

async function searchResults(provider: DataProvider, query: string, signal: AbortSignal): Promise<SearchResult[]> {
  const answer = await provider.fetch({ operationId: 'searchWeb', query: { query, limit: MONITOR_SEARCH_LIMIT }, signal });
  if (!Array.isArray(answer.results)) throw new ProviderError('upstream_failed', monitorSearchUnreadable(provider.name));
  return answer.results as SearchResult[];
}

/** Reads what `monitor` watches from `provider` (the one routed for its mode's operation, if any). */
export async function observe(provider: DataProvider | undefined, monitor: Monitor, signal: AbortSignal): Promise<Observation> {
  if (monitor.mode === 'search') {
    if (!provider) throw new ProviderError('provider_unavailable', monitorProviderMissing('Monitors in mode search need a search provider'));
    return { content: searchResultsMarkdown(await searchResults(provider, String(monitor.query), signal)), statusCode: null };
  }
  if (!provider?.pages) throw new ProviderError('provider_unavailable', monitorProviderMissing('Monitors need a provider of pages'));
  const page = await provider.pages.page(monitor.url, { formats: ['markdown'], onlyMainContent: true, signal });
  return { content: page.document.markdown ?? '', statusCode: page.statusCode };
}
