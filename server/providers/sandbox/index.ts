/** The built-in sandbox provider: deterministic made-up data for sandbox API keys, no network (see README.md). */
import type { DataOperationId, DataProvider, ProviderCall } from '../types.ts';
import { sandboxPriceHistory } from './finance.ts';
import { sandboxMicroblogPost } from './microblog.ts';
import type { Query } from './request.ts';
import { sandboxCollectionVideos } from './shortvideo.ts';
import { sandboxSocialEvents } from './socialnet.ts';
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

/** Answers every data operation from the request alone: the same request always gets the same `data`. */
export const sandboxProvider: DataProvider = {
  name: 'sandbox',
  async fetch(call: ProviderCall): Promise<Record<string, unknown>> {
    call.signal.throwIfAborted();
    return ANSWER_BY_OPERATION[call.operationId](call.query) as Record<string, unknown>;
  },
};
