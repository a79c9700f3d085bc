/** What a caller asks of an HTML page's conversion, and the rule both conversion paths share. */
export interface ConvertOptions {
  formats: readonly string[];
  onlyMainContent: boolean;
  includeTags?: string;
  excludeTags?: string;
  removeBase64Images: boolean;
  blockAds: boolean;
}

/** Enough text for a `<main>` or `<article>` element to be taken as the main content without Readability. */
export const MAIN_ELEMENT_MIN_TEXT = 200;
