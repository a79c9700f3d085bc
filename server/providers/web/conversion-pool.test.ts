import { afterEach, describe, expect, it } from 'vitest';
import { ConversionPool } from './conversion-pool.ts';
import type { FetchedPage } from '../../outbound/fetch-page.ts';
import { htmlToDocument, type ConvertOptions } from './html-to-document.ts';
import { pdfToDocument } from './pdf-to-document.ts';
import { makePdf } from '../../test-support/pdf.ts';

const OPTIONS: ConvertOptions = { formats: ['markdown', 'metadata', 'links'], onlyMainContent: true, removeBase64Images: true, blockAds: true };

function page(html: string): FetchedPage {
  return { requestedUrl: 'https://example.com/a', url: 'https://example.com/a', status: 200, contentType: 'text/html', body: Buffer.from(html) };
}

const ARTICLE = `<!doctype html><html lang="en"><head><title>Release notes</title></head><body><nav><a href="/">Home</a></nav>
  <article><h1>Release notes</h1><p>${'Boards load faster and the planner opens at once. '.repeat(8)}</p>
  <table><tr><th>Plan</th><th>Price</th></tr><tr><td>Team</td><td>$49</td></tr></table><a href="/docs">Docs</a></article></body></html>`;

/** Deeply nested markup: every level is a node, so the tree grows far beyond the page's size. */
function nestedPage(levels: number): string {
  return `<html><body>${'<div><span>x</span>'.repeat(levels)}${'</div>'.repeat(levels)}</body></html>`;
}

/**
 * Millions of sibling elements: a tree far beyond any heap bound here. It outgrows 48 MB in about
 * 0.6 s of CPU, where 400,000 nested levels took over 5 s (and, on a busy machine, met the time bound first).
 */
function widePage(paragraphs: number): string {
  return `<html><body>${'<p><span>x</span></p>'.repeat(paragraphs)}</body></html>`;
}

describe('the conversion pool', () => {
  let pool: ConversionPool | undefined;
  afterEach(async () => {
    await pool?.close();
  });

  it('converts on a worker exactly as in the calling thread', async () => {
    pool = new ConversionPool({ size: 1, timeoutMs: 10_000, maxHeapMb: 128 });
    const [converted, again] = await Promise.all([pool.html(page(ARTICLE), OPTIONS), pool.html(page(ARTICLE), OPTIONS)]);
    expect(converted).toEqual(htmlToDocument(page(ARTICLE), OPTIONS));
    expect(again).toEqual(converted);
    expect(converted.markdown).toContain('| Plan | Price |');
  });

  it('reads a PDF on a worker exactly as in the calling thread, and passes its failure on as it is', async () => {
    pool = new ConversionPool({ size: 1, timeoutMs: 10_000, maxHeapMb: 128 });
    const pdf: FetchedPage = { ...page(''), contentType: 'application/pdf', body: makePdf('Quarterly report', ['Revenue grew 12 percent']) };
    const read = await pool.pdf(pdf, ['markdown', 'metadata'], true);
    expect(read).toEqual(await pdfToDocument(pdf, ['markdown', 'metadata'], true));
    expect(read.markdown).toContain('Revenue grew 12 percent');
    const broken = { ...pdf, body: Buffer.from('%PDF-1.4 not really a PDF') };
    await expect(pool.pdf(broken, ['markdown'], true)).rejects.toMatchObject({ code: 'upstream_failed', message: expect.stringMatching(/^The PDF https:\/\/example.com\/a could not be read: /) });
  });

  it('fails a page that takes longer than the time bound with upstream_failed, and goes on with the next', async () => {
    pool = new ConversionPool({ size: 1, timeoutMs: 10_000, maxHeapMb: 512 });
    await pool.html(page(ARTICLE), OPTIONS);
    // 1.2 MB of markup cannot even be parsed in 30 ms; the next page gets a fresh worker and the pool's bound.
    await expect(pool.html(page(nestedPage(60_000)), OPTIONS, 30)).rejects.toMatchObject({ code: 'upstream_failed', message: 'The page could not be converted within 30 ms.' });
    await expect(pool.html(page(ARTICLE), OPTIONS)).resolves.toMatchObject({ url: 'https://example.com/a' });
  });

  it('fails a page that needs more than the heap bound with upstream_failed, without harm to the process', async () => {
    // 48 MB: the replacement worker must still convert the article; at 16 MB a fresh worker with its
    // modules loaded ran out of memory on it too, in 2 runs of 3.
    pool = new ConversionPool({ size: 1, timeoutMs: 60_000, maxHeapMb: 48 });
    await expect(pool.html(page(widePage(1_500_000)), OPTIONS)).rejects.toMatchObject({ code: 'upstream_failed', message: 'The page could not be converted within the 48 MB of memory a page may use.' });
    await expect(pool.html(page(ARTICLE), OPTIONS)).resolves.toMatchObject({ url: 'https://example.com/a' });
  });

  it('fails the pages still waiting when it closes', async () => {
    pool = new ConversionPool({ size: 1, timeoutMs: 10_000, maxHeapMb: 128 });
    const settled = Promise.allSettled([pool.html(page(ARTICLE), OPTIONS), pool.html(page(ARTICLE), OPTIONS)]);
    await pool.close();
    for (const result of await settled) expect(result).toMatchObject({ status: 'rejected', reason: { code: 'service_unavailable' } });
  });
});
