import { describe, expect, it } from 'vitest';
import type { FetchedPage } from '../../outbound/fetch-page.ts';
import type { ConvertOptions } from './convert-options.ts';
import { domDocument } from './html-to-document.ts';
import { treeDocument } from './tree-document.ts';

function page(html: string): FetchedPage {
  return { requestedUrl: 'https://example.com/a/', url: 'https://example.com/a/', status: 200, contentType: 'text/html', body: Buffer.from(html) };
}

const FORMATS = ['markdown', 'html', 'metadata', 'links'];
const TEXT = 'The quick brown fox jumps over the lazy dog, again and again, so that the element holds enough text to be taken as the main content. '.repeat(2);
const PAGES = {
  'an article in a full page': `<!doctype html><html lang="en"><head><title> Notes </title><meta name="description" content=" About notes "><meta property="og:title" content="OG"></head>
    <body><nav><a href="/home">Home</a></nav><article><h1>Notes</h1><header>By me</header><p>${TEXT}<a href="../b#part">next</a></p>
    <div class="ad">Buy</div><img src="data:image/png;base64,AAAA" alt="inline"><img src="pic.png" alt="picture"><aside>Related</aside>
    <ul><li><input type="checkbox" checked>done</li></ul><table><tr><td>k</td><td>v</td></tr></table></article><footer>Footer <a href="mailto:x@y">mail</a></footer>
    <script>var a = 1;</script><noscript><a href="/noscript">n</a></noscript></body></html>`,
  'a page without body tags': `<title>Bare</title><meta property="og:description" content="og text"><main role="main"><h2>Main</h2><p>${TEXT}</p><p id="ad-1">ad</p></main>`,
  'a role=main element': `<html><body><div role="main"><p>${TEXT}</p><section class="x ad-box">sponsored</section><ins class="adsbygoogle">g</ins></div></body></html>`,
};
const OPTIONS: Record<string, ConvertOptions> = {
  'the whole body': { formats: FORMATS, onlyMainContent: false, removeBase64Images: true, blockAds: true },
  'the main content': { formats: FORMATS, onlyMainContent: true, removeBase64Images: true, blockAds: true },
  'ads and inline images kept': { formats: FORMATS, onlyMainContent: true, removeBase64Images: false, blockAds: false },
};

describe('the fast conversion path (htmlparser2 and mdream)', () => {
  const cases = Object.entries(PAGES).flatMap(([pageName, html]) => Object.entries(OPTIONS).map(([optionsName, options]) => [pageName, optionsName, html, options] as const));
  it.each(cases)('takes the decisions the DOM path takes: %s, %s', (_page, _options, html, options) => {
    const fast = treeDocument(page(html), html, options);
    const dom = domDocument(page(html), html, options);
    expect(fast).toEqual(dom);
  });

  it.each([
    ['no element marks the main content', '<html><body><div><p>Text</p></div></body></html>', { onlyMainContent: true }],
    ['the marked element holds too little text', '<html><body><article>Short</article><div>Long</div></body></html>', { onlyMainContent: true }],
    ['the caller wrote CSS selectors to include', `<html><body><article>${TEXT}</article></body></html>`, { onlyMainContent: false, includeTags: 'article' }],
    ['the caller wrote CSS selectors to exclude', `<html><body><article>${TEXT}</article></body></html>`, { onlyMainContent: false, excludeTags: '.x' }],
  ])('leaves the page to the DOM path (Readability, CSS selectors) when %s', (_, html, options) => {
    expect(treeDocument(page(html), html, { formats: FORMATS, removeBase64Images: true, blockAds: true, ...options })).toBeUndefined();
  });

  it('a page with a marked main element is converted without linkedom (the benchmark page took 1.2 ms through linkedom)', () => {
    const html = `<!doctype html><html><head><title>T</title></head><body><nav><a href="/">Home</a></nav><article><h1>T</h1><p>${TEXT}</p></article></body></html>`;
    const document = treeDocument(page(html), html, OPTIONS['the main content']!);
    expect(document?.markdown).toBe(`# T\n\n${TEXT.trim()}`);
    expect(document?.links).toEqual(['https://example.com/']);
  });
});
