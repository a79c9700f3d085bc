/**
 * Pages for the model: read by the shared page reader (../read-page.ts, the web provider under the
 * address policy) and shown to the model bounded in size.
 */
import type { PageRead } from '../read-page.ts';

export { readPageThrough, type PageRead, type ReadPage, type ReadPageOptions } from '../read-page.ts';

/** Characters of one page's Markdown the model is shown; the rest is cut, with a note saying so. */
export const MAX_PAGE_CHARACTERS = 100_000;

/** The page as the model reads it: its URL, its title and its Markdown, cut at `maxCharacters` with a note. */
export function pageForModel(page: PageRead, maxCharacters = MAX_PAGE_CHARACTERS): string {
  const cut = page.markdown.length > maxCharacters;
  const markdown = cut ? page.markdown.slice(0, maxCharacters) : page.markdown;
  const note = cut ? `\n\n[The page is longer: only its first ${maxCharacters} of ${page.markdown.length} characters are shown.]` : '';
  return `Page URL: ${page.url}\nPage title: ${page.title ?? page.metadata?.title ?? '(none)'}\n\nPage content (Markdown):\n<page>\n${markdown}\n</page>${note}`;
}
