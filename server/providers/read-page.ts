/**
 * Reading one page a user named, for an adapter that needs its content (`web/extract`, the agent,
 * `web/search`'s `include_content`): fetched and converted to Markdown as `web/scrape` does it,
 * under the address policy, by the web provider.
 */
import type { components } from '../../generated/types.ts';
import { capabilityUnavailable } from '../../lib/error-messages.ts';
import { ProviderError, type DataProvider } from './types.ts';

type PageMetadata = components['schemas']['PageMetadata'];

export interface ReadPageOptions {
  onlyMainContent: boolean;
  timeoutMs: number;
  /** `web/extract`'s `proxy`, passed on so the page reader refuses what it cannot do. */
  proxy?: string;
}

export interface PageRead {
  markdown: string;
  /** The final URL, after redirects. */
  url: string;
  title?: string | null;
  /** The page's facts as `web/scrape`'s `metadata` format gives them, when the reader has them. */
  metadata?: PageMetadata;
}

/** Reads one page for a user; fails with the ProviderError `web/scrape` would answer. */
export type ReadPage = (url: string, options: ReadPageOptions, signal: AbortSignal) => Promise<PageRead>;

/** A ReadPage that asks `web` (the web provider) for the page as `web/scrape?formats=markdown,metadata`. */
export function readPageThrough(web: DataProvider): ReadPage {
  return async (url, options, signal) => {
    const query: Record<string, unknown> = { url, formats: 'markdown,metadata', only_main_content: options.onlyMainContent, timeout: options.timeoutMs };
    if (options.proxy !== undefined) query.proxy = options.proxy;
    const document = await web.fetch({ operationId: 'scrapeWebPage', query, signal });
    const metadata = document.metadata as PageMetadata;
    return { markdown: String(document.markdown ?? ''), url: metadata.url, title: metadata.title, metadata };
  };
}

/** The ReadPage of a server without the web provider (some tests' servers): every page answers 503 `capability_unavailable`, uncharged. */
export const noPageReader: ReadPage = async () => {
  throw new ProviderError('capability_unavailable', capabilityUnavailable('Reading pages needs the web provider, and none is configured'));
};
