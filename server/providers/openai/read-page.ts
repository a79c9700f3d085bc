/**
 * Pages for the model: read and converted to Markdown as `web/scrape` does it (under the address
 * policy, by the web provider), and shown to the model bounded in size.
 */
import type { components } from '../../../generated/types.ts';
import type { DataProvider } from '../types.ts';

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

/** Characters of one page's Markdown the model is shown; the rest is cut, with a note saying so. */
export const MAX_PAGE_CHARACTERS = 100_000;

/** The page as the model reads it: its URL, its title and its Markdown, cut at `maxCharacters` with a note. */
export function pageForModel(page: PageRead, maxCharacters = MAX_PAGE_CHARACTERS): string {
  const cut = page.markdown.length > maxCharacters;
  const markdown = cut ? page.markdown.slice(0, maxCharacters) : page.markdown;
  const note = cut ? `\n\n[The page is longer: only its first ${maxCharacters} of ${page.markdown.length} characters are shown.]` : '';
  return `Page URL: ${page.url}\nPage title: ${page.title ?? page.metadata?.title ?? '(none)'}\n\nPage content (Markdown):\n<page>\n${markdown}\n</page>${note}`;
}

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
