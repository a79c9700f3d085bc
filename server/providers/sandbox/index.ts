/** The built-in sandbox provider: deterministic made-up data for sandbox API keys, no network (see README.md). */
import { setTimeout as delay } from 'node:timers/promises';
import type { DataOperationId, DataProvider, ProviderCall } from '../types.ts';
import { sandboxPriceHistory } from './finance.ts';
import { sandboxMicroblogPost } from './microblog.ts';
import type { Query } from './request.ts';
import { sandboxCollectionVideos } from './shortvideo.ts';
import { sandboxSocialEvents } from './socialnet.ts';
import { sandboxAgent, sandboxJudge, sandboxPageSource } from './page-source.ts';
import { sandboxExtract, sandboxMap, sandboxScrape, sandboxSearch } from './web.ts';

const ANSWER_BY_OPERATION: { readonly [id in DataOperationId]: (query: Query) => object } = {
  scrapeWebPage: sandboxScrape,
  searchWeb: sandboxSearch,
  mapWebsite: sandboxMap,
  extractWebData: sandboxExtract,
  listCollectionVideos: sandboxCollectionVideos,
  getPriceHistory: sandboxPriceHistory,
  getMicroblogPost: sandboxMicroblogPost,
  listSocialEvents: sandboxSocialEvents,
};

/**
 * Answers every data operation from the request alone: the same request always gets the same
 * `data`. A scrape's `wait_for` is waited for real, as a browser would, so callers can see a slow call.
 * It also gives the pages of sandbox jobs and monitor checks, agent answers and monitor judgements.
 */
export const sandboxProvider: DataProvider = {
  name: 'sandbox',
  async fetch(call: ProviderCall): Promise<Record<string, unknown>> {
    call.signal.throwIfAborted();
    const waitFor = Number(call.query.wait_for ?? 0);
    if (call.operationId === 'scrapeWebPage' && waitFor > 0) await delay(waitFor, undefined, { signal: call.signal });
    return ANSWER_BY_OPERATION[call.operationId](call.query) as Record<string, unknown>;
  },
  pages: sandboxPageSource,
  agent: sandboxAgent,
  judge: sandboxJudge,
};
