import { describe, expect, it } from 'vitest';
import type { FetchedPage } from '../../outbound/fetch-page.ts';
import { htmlToDocument } from './html-to-document.ts';

function page(html: string): FetchedPage {
  return { requestedUrl: 'https://example.com/a', url: 'https://example.com/a', status: 200, contentType: 'text/html', body: Buffer.from(html) };
}

const convert = (html: string) => htmlToDocument(page(html), { formats: ['markdown', 'metadata', 'links'], onlyMainContent: false, removeBase64Images: true, blockAds: true });

describe('HTML pages as documents', () => {
  it.each([
    ['no html, head or body tags', '<!doctype html><title>Notes</title><h1>Hi</h1><p>there, <a href="/b">next</a></p>'],
    ['html without body', '<html lang="en"><head><title>Notes</title></head><h1>Hi</h1><p>there, <a href="/b">next</a></p></html>'],
    ['a bare fragment', '<h1>Hi</h1><p>there, <a href="/b">next</a></p>'],
  ])('reads a page written with %s as a browser would', (_, html) => {
    const document = convert(html);
    expect(document.markdown).toBe('# Hi\n\nthere, [next](https://example.com/b)');
    expect(document.links).toEqual(['https://example.com/b']);
  });

  it('takes the title from the head, and never writes it into the content', () => {
    const document = convert('<!doctype html><html><head><title>Notes</title></head><body><p>Text</p><svg><title>icon</title></svg></body></html>');
    expect(document.metadata?.title).toBe('Notes');
    expect(document.markdown).toBe('Text');
  });
});
