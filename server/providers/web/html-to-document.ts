/**
 * A fetched HTML page as the contract's WebDocument: Markdown of good quality (headings, lists,
 * tables, links, code blocks, see markdown.ts), main-content extraction through Mozilla
 * Readability, CSS selectors to include or exclude, ads and inline images removed on request,
 * absolute links and page metadata. Most pages take the fast path (tree-document.ts: htmlparser2
 * alone); a page whose main content no `<main>`/`<article>` marks, or a call with CSS selectors,
 * takes the path below: the page parsed once by linkedom, every step on that one DOM.
 */
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import type { components } from '../../../generated/types.ts';
import type { FetchedPage } from '../../outbound/fetch-page.ts';
import { MAIN_ELEMENT_MIN_TEXT, type ConvertOptions } from './convert-options.ts';
import { parseTree } from './html-tree.ts';
import { toMarkdown } from './markdown.ts';
import { treeDocument } from './tree-document.ts';

type WebDocument = components['schemas']['WebDocument'];

export type { ConvertOptions } from './convert-options.ts';

const NEVER_CONTENT = 'script, style, noscript, template, iframe, object, embed, link, meta, base, title';
const AD_SELECTORS = 'ins.adsbygoogle, .ad, .ads, .advert, .advertisement, .sponsored, [id^="ad-"], [class^="ad-"], [id*="-ad-"], [class*=" ad-"], [aria-label="Advertisement"], [data-ad], [data-ad-slot]';

type Document = ReturnType<typeof parseHTML>['document'];
/** The element whose content becomes the document's html and markdown. */
type Content = { innerHTML: string };

function meta(document: Document, selectors: string[]): string | null {
  for (const selector of selectors) {
    const content = document.querySelector(selector)?.getAttribute('content')?.trim();
    if (content) return content;
  }
  return null;
}

function absoluteLinks(document: Document, baseUrl: string): string[] {
  const links = new Set<string>();
  for (const anchor of document.querySelectorAll('a[href]')) {
    try {
      const url = new URL(anchor.getAttribute('href')!, baseUrl);
      url.hash = '';
      if (url.protocol === 'http:' || url.protocol === 'https:') links.add(url.href);
    } catch {
      // An href that is not a URL is not a link.
    }
  }
  return [...links];
}

/**
 * Removes every element matching a selector list, in one pass over the tree. A list the parser
 * refuses is tried selector by selector, so one bad selector a caller wrote removes nothing but
 * leaves the others working.
 */
function removeAll(root: { querySelectorAll(selector: string): Iterable<{ remove(): void }> }, selectors: string | undefined): void {
  const list = (selectors ?? '').split(',').map((part) => part.trim()).filter(Boolean);
  if (list.length === 0) return;
  try {
    for (const element of [...root.querySelectorAll(list.join(', '))]) element.remove();
    return;
  } catch {
    if (list.length === 1) return;
  }
  for (const selector of list) removeAll(root, selector);
}

function keepOnly(document: Document, selectors: string): void {
  const kept: string[] = [];
  for (const selector of selectors.split(',').map((part) => part.trim()).filter(Boolean)) {
    try {
      for (const element of document.querySelectorAll(selector)) kept.push(element.outerHTML);
    } catch {
      // As above.
    }
  }
  document.body.innerHTML = kept.join('\n');
}

function absolutise(document: Document, baseUrl: string): void {
  for (const [selector, attribute] of [['a[href]', 'href'], ['img[src]', 'src']] as const) {
    for (const element of document.querySelectorAll(selector)) {
      try {
        element.setAttribute(attribute, new URL(element.getAttribute(attribute)!, baseUrl).href);
      } catch {
        // Left as written.
      }
    }
  }
}

/**
 * Readability's time grows far faster than the page with the depth of its markup (a 7 KB page
 * nested 300 deep took seconds, 1,000 deep most of a minute) and with its size (an 8 MB page
 * without <main> took 20 s). Real pages are a few dozen deep and a few thousand elements; deeper
 * or larger ones are read as their body without its page chrome. (Readability's own element limit
 * counts with getElementsByTagName('*'), which linkedom does not support, so it is counted here.)
 */
const READABILITY_MAX_DEPTH = 100;
const READABILITY_MAX_ELEMENTS = 30_000;
const PAGE_CHROME = 'nav, header, footer, aside';

type Tree = { children: ArrayLike<unknown> };

/** Whether the tree under `root` is within Readability's limits (stops counting past them). */
function fitsReadability(root: Tree | null): boolean {
  let level: Tree[] = root ? [root] : [];
  let elements = 0;
  for (let depth = 0; level.length > 0; depth++) {
    elements += level.length;
    if (depth > READABILITY_MAX_DEPTH || elements > READABILITY_MAX_ELEMENTS) return false;
    level = level.flatMap((element) => Array.from(element.children) as Tree[]);
  }
  return true;
}

/**
 * The content element: with `onlyMainContent`, the page's own `<main>`/`<article>` when it holds
 * enough text (fast, and what the author marked), else what Mozilla Readability extracts, else the
 * body without its page chrome.
 */
function contentRoot(document: Document, page: FetchedPage, options: ConvertOptions): Content | undefined {
  removeAll(document, NEVER_CONTENT);
  if (options.blockAds) removeAll(document, AD_SELECTORS);
  if (options.excludeTags) removeAll(document, options.excludeTags);
  if (options.includeTags) keepOnly(document, options.includeTags);
  if (options.removeBase64Images) {
    for (const image of [...document.querySelectorAll('img[src^="data:"]')]) image.replaceWith(document.createTextNode(image.getAttribute('alt') ?? ''));
  }
  absolutise(document, page.url);
  if (options.onlyMainContent) {
    const marked = document.querySelector('main, article, [role="main"]');
    if (marked && (marked.textContent ?? '').trim().length >= MAIN_ELEMENT_MIN_TEXT) {
      removeAll(marked, PAGE_CHROME);
      return marked;
    }
    if (fitsReadability(document.body)) {
      const article = new Readability(document as unknown as globalThis.Document, { keepClasses: false, serializer: (node): Content => node as Element }).parse();
      if (article?.content) return article.content;
    }
    if (document.body) removeAll(document.body, PAGE_CHROME);
  }
  return document.body ?? undefined;
}

/**
 * The page with an explicit `<body>`. HTML may leave out `<html>`, `<head>` and `<body>`, and a
 * browser supplies them; linkedom does not, and would see no body at all, so they are supplied
 * here: what stood in `<head>` stays there, everything else goes in the body.
 */
function withBody(html: string): string {
  if (/<body[\s>]/i.test(html)) return html;
  const content = html.replace(/^\s*<!doctype[^>]*>/i, '').replace(/<\/?html(?:\s[^>]*)?>/gi, '');
  const head = /<head(?:\s[^>]*)?>([\s\S]*?)<\/head>/i.exec(content);
  const body = head ? content.replace(head[0], '') : content;
  return `<!doctype html><html><head>${head?.[1] ?? ''}</head><body>${body}</body></html>`;
}

/** The document of an HTML page in the formats asked for (`formats`), nothing more. */
export function htmlToDocument(page: FetchedPage, options: ConvertOptions): WebDocument {
  const html = page.body.toString('utf8');
  return treeDocument(page, html, options) ?? domDocument(page, html, options);
}

/** The document by linkedom's DOM: CSS selectors and Readability. */
export function domDocument(page: FetchedPage, html: string, options: ConvertOptions): WebDocument {
  const wants = new Set(options.formats);
  const document: WebDocument = { url: page.url };
  // Parsed once: metadata and links are read first, then the same tree is cleaned for the content.
  const { document: parsed } = parseHTML(withBody(html));
  if (wants.has('metadata')) {
    document.metadata = {
      title: parsed.querySelector('title')?.textContent?.trim() || meta(parsed, ['meta[property="og:title"]']),
      description: meta(parsed, ['meta[name="description"]', 'meta[property="og:description"]']),
      language: parsed.documentElement?.getAttribute('lang') || null,
      source_url: page.requestedUrl,
      url: page.url,
      status_code: page.status,
      content_type: page.contentType,
    };
  }
  if (wants.has('raw_html')) document.raw_html = html;
  if (wants.has('links')) document.links = absoluteLinks(parsed, page.url);
  if (wants.has('markdown') || wants.has('html')) {
    const content = contentRoot(parsed, page, options);
    if (wants.has('html')) document.html = content?.innerHTML ?? '';
    if (wants.has('markdown')) document.markdown = content ? toMarkdown(parseTree(content.innerHTML)) : '';
  }
  return document;
}
