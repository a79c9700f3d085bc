/** A fetched PDF as the contract's WebDocument: its text (pdf.js through unpdf), page by page. */
import { extractText, getDocumentProxy, getMeta } from 'unpdf';
import type { components } from '../../../generated/types.ts';
import { ProviderError } from '../types.ts';
import type { FetchedPage } from '../../outbound/fetch-page.ts';

type WebDocument = components['schemas']['WebDocument'];

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (character) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[character]!);
}

/** Whether a fetched page is a PDF: by its media type, or by its signature when the site mislabels it. */
export function isPdf(page: FetchedPage): boolean {
  return page.contentType === 'application/pdf' || page.body.subarray(0, 5).toString('latin1') === '%PDF-';
}

/** The document of a PDF in the formats asked for; `parse: false` keeps only its metadata. */
export async function pdfToDocument(page: FetchedPage, formats: readonly string[], parse: boolean): Promise<WebDocument> {
  const wants = new Set(formats);
  let pages: string[] = [];
  let title: string | null = null;
  let language: string | null = null;
  try {
    const pdf = await getDocumentProxy(new Uint8Array(page.body));
    const { info } = await getMeta(pdf);
    title = typeof info.Title === 'string' && info.Title.trim() ? info.Title.trim() : null;
    language = typeof info.Language === 'string' && info.Language ? info.Language : null;
    if (parse) pages = (await extractText(pdf, { mergePages: false })).text.map((text) => text.trim());
  } catch (error) {
    throw new ProviderError('upstream_failed', `The PDF ${page.url} could not be read: ${(error as Error).message}.`);
  }
  const document: WebDocument = { url: page.url };
  if (wants.has('markdown')) document.markdown = pages.filter(Boolean).join('\n\n');
  if (wants.has('html')) document.html = pages.filter(Boolean).map((text) => `<pre>${escapeHtml(text)}</pre>`).join('\n');
  if (wants.has('raw_html')) document.raw_html = '';
  if (wants.has('links')) document.links = [];
  if (wants.has('metadata')) {
    document.metadata = { title, description: null, language, source_url: page.requestedUrl, url: page.url, status_code: page.status, content_type: page.contentType };
  }
  return document;
}
