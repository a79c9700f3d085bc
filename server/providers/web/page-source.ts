/**
 * The web provider's pages for jobs and monitor checks: each fetched under the address policy
 * (at most FETCHES_PER_HOST in flight to one host, whichever jobs ask) and converted on the
 * conversion pool, with every link it holds. A job takes 32 of them per step, 8 at a time: with
 * at most FETCHES_PER_HOST of those fetching from one host, the others are being converted, so the
 * fetches of a one-host crawl never wait for the converter. (With 16 pages, 4 at a time, the event
 * loop sat idle about half of a crawl, each lane waiting on its page's conversion; a step's
 * transaction is also paid per 32 pages rather than 16.)
 */
import robotsParserModule from 'robots-parser';
import { fetchPage, statusFailure, type FetchContext } from '../../outbound/fetch-page.ts';
import type { PageSource, RobotsRules } from '../types.ts';
import type { ConversionPool } from './conversion-pool.ts';
import { HostSlots } from './host-slots.ts';
import { isPdf } from './pdf-to-document.ts';

/** Requests in flight to one host, across every job and check. */
const FETCHES_PER_HOST = 4;

/** robots-parser is CommonJS: its default import is the parser function itself. */
const robotsParser = robotsParserModule as unknown as (url: string, text: string) => RobotsRules;

export function webPageSource(context: FetchContext, pool: ConversionPool): PageSource {
  const hostSlots = new HostSlots(FETCHES_PER_HOST);
  return {
    pagesPerStep: 32,
    fetchesAtOnce: 8,
    oneStepPerTick: false,
    async page(url, request) {
      const page = await hostSlots.run(url, () => fetchPage(url, { ...context, ...(request.signal ? { signal: request.signal } : {}) }));
      const failure = statusFailure(page);
      if (failure) throw failure;
      const withLinks = [...new Set([...request.formats, 'links'])];
      const document = isPdf(page)
        ? await pool.pdf(page, request.formats, true)
        : await pool.html(page, { formats: withLinks, onlyMainContent: request.onlyMainContent, removeBase64Images: true, blockAds: true });
      const links = document.links ?? [];
      if (!request.formats.includes('links')) delete document.links;
      return { url: page.url, statusCode: page.status, document, links };
    },
    async robots(startUrl) {
      const robotsUrl = new URL('/robots.txt', startUrl).href;
      try {
        const page = await hostSlots.run(robotsUrl, () => fetchPage(robotsUrl, context));
        return robotsParser(robotsUrl, page.status < 400 ? page.body.toString('utf8') : '');
      } catch {
        return robotsParser(robotsUrl, '');
      }
    },
  };
}
