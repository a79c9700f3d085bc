/**
 * The fast path of html-to-document.ts: the page parsed by htmlparser2 alone (no DOM on top),
 * cleaned, its metadata and links read, and its content converted by markdown.ts. It takes the
 * decisions the linkedom path takes (the same elements removed, the same `<main>`/`<article>`
 * shortcut) and declines, returning undefined, where that path needs a DOM: CSS selectors the
 * caller wrote (`includeTags`, `excludeTags`), and main content no marked element holds, which
 * Readability extracts.
 */
import type { components } from '../../../generated/types.ts';
import type { FetchedPage } from '../../outbound/fetch-page.ts';
import { findFirst, innerHtml, isElement, parseTree, remove, replaceWithText, textOf, walk, type TreeDocument, type TreeElement, type TreeParent } from './html-tree.ts';
import { toMarkdown } from './markdown.ts';
import { MAIN_ELEMENT_MIN_TEXT, type ConvertOptions } from './convert-options.ts';

type WebDocument = components['schemas']['WebDocument'];

/** html-to-document.ts's NEVER_CONTENT and PAGE_CHROME, as tag names. */
const NEVER_CONTENT = new Set(['script', 'style', 'noscript', 'template', 'iframe', 'object', 'embed', 'link', 'meta', 'base', 'title']);
const PAGE_CHROME = new Set(['nav', 'header', 'footer', 'aside']);
const AD_CLASSES = new Set(['ad', 'ads', 'advert', 'advertisement', 'sponsored']);

/** html-to-document.ts's AD_SELECTORS, as a test of one element. */
function isAd({ name, attribs }: TreeElement): boolean {
  const id = attribs.id ?? '';
  const className = attribs.class ?? '';
  const classes = className.split(/\s+/);
  return (name === 'ins' && classes.includes('adsbygoogle'))
    || classes.some((token) => AD_CLASSES.has(token))
    || id.startsWith('ad-') || className.startsWith('ad-') || id.includes('-ad-') || className.includes(' ad-')
    || attribs['aria-label'] === 'Advertisement' || 'data-ad' in attribs || 'data-ad-slot' in attribs;
}

function absolute(value: string, baseUrl: string): string | undefined {
  try {
    return new URL(value, baseUrl).href;
  } catch {
    return undefined;
  }
}

/** Title, description, language and links, read before anything is removed (as the linkedom path does). */
function survey(tree: TreeDocument, page: FetchedPage, wantsLinks: boolean) {
  let title: string | undefined;
  const metas: Record<string, string | undefined> = {};
  const links = new Set<string>();
  walk(tree, (element) => {
    if (element.name === 'title' && title === undefined) title = textOf(element).trim();
    else if (element.name === 'meta') {
      const key = element.attribs.name === 'description' ? 'description' : element.attribs.property;
      if (key && !(key in metas)) metas[key] = element.attribs.content;
    } else if (wantsLinks && element.name === 'a' && element.attribs.href !== undefined) {
      const href = absolute(element.attribs.href, page.url);
      if (href) {
        const url = new URL(href);
        url.hash = '';
        if (url.protocol === 'http:' || url.protocol === 'https:') links.add(url.href);
      }
    }
  });
  const first = (...values: (string | undefined)[]) => values.map((value) => value?.trim()).find(Boolean) ?? null;
  const html = findFirst(tree, (element) => element.name === 'html');
  return {
    title: title || first(metas['og:title']),
    description: first(metas.description, metas['og:description']),
    language: html?.attribs.lang || null,
    links: [...links],
  };
}

/** Removes what is never content (and ads, and inline images, on request) and makes links and image sources absolute. */
function clean(tree: TreeDocument, page: FetchedPage, options: ConvertOptions): void {
  walk(tree, (element) => {
    if (NEVER_CONTENT.has(element.name) || (options.blockAds && isAd(element))) {
      remove(element);
      return false;
    }
    if (element.name === 'img' && element.attribs.src !== undefined) {
      if (options.removeBase64Images && element.attribs.src.startsWith('data:')) {
        replaceWithText(element, element.attribs.alt ?? '');
        return false;
      }
      element.attribs.src = absolute(element.attribs.src, page.url) ?? element.attribs.src;
    }
    if (element.name === 'a' && element.attribs.href !== undefined) element.attribs.href = absolute(element.attribs.href, page.url) ?? element.attribs.href;
    return true;
  });
}

/** The content: the body (or, without one, the page without its head), or with `onlyMainContent` the marked main element; undefined when none holds enough text. */
function contentRoot(tree: TreeDocument, options: ConvertOptions): TreeParent | undefined {
  if (options.onlyMainContent) {
    const marked = findFirst(tree, (element) => element.name === 'main' || element.name === 'article' || element.attribs.role === 'main');
    if (!marked || textOf(marked).trim().length < MAIN_ELEMENT_MIN_TEXT) return undefined;
    walk(marked, (element) => {
      if (!PAGE_CHROME.has(element.name)) return true;
      remove(element);
      return false;
    });
    return marked;
  }
  const body = findFirst(tree, (element) => element.name === 'body');
  if (body) return body;
  // Without <body>, as a browser reads it: everything but the head and the doctype.
  const root = findFirst(tree, (element) => element.name === 'html') ?? tree;
  for (const child of [...root.children]) if (child.type === 'directive' || (isElement(child) && child.name === 'head')) remove(child);
  return root;
}

/** The page's document by the fast path, or undefined where the linkedom path must take it (see above). */
export function treeDocument(page: FetchedPage, html: string, options: ConvertOptions): WebDocument | undefined {
  if (options.includeTags || options.excludeTags) return undefined;
  const wants = new Set(options.formats);
  const tree = parseTree(html);
  const found = wants.has('metadata') || wants.has('links') ? survey(tree, page, wants.has('links')) : undefined;
  let content: TreeParent | undefined;
  if (wants.has('markdown') || wants.has('html')) {
    clean(tree, page, options);
    content = contentRoot(tree, options);
    if (!content) return undefined;
  }
  const document: WebDocument = { url: page.url };
  if (found && wants.has('metadata')) {
    document.metadata = {
      title: found.title,
      description: found.description,
      language: found.language,
      source_url: page.requestedUrl,
      url: page.url,
      status_code: page.status,
      content_type: page.contentType,
    };
  }
  if (wants.has('raw_html')) document.raw_html = html;
  if (found && wants.has('links')) document.links = found.links;
  if (content && wants.has('html')) document.html = innerHtml(content);
  if (content && wants.has('markdown')) document.markdown = toMarkdown(content);
  return document;
}
