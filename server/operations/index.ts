/** Every operation's handler, by the contract's operationId: the server's only route table is the contract's. */
import type { OperationId } from '../../generated/operations.ts';
import { providerOperation } from './data-operations.ts';
import { jobHandlers } from './jobs.ts';
import { monitorHandlers } from './monitors.ts';
import type { OperationHandler } from './types.ts';

export const handlers: Record<OperationId, OperationHandler> = {
  scrapeWebPage: providerOperation('scrapeWebPage'),
  searchWeb: providerOperation('searchWeb'),
  mapWebsite: providerOperation('mapWebsite'),
  extractWebData: providerOperation('extractWebData'),
  listCollectionVideos: providerOperation('listCollectionVideos'),
  getPriceHistory: providerOperation('getPriceHistory'),
  getMicroblogPost: providerOperation('getMicroblogPost'),
  listSocialEvents: providerOperation('listSocialEvents'),
  ...jobHandlers,
  ...monitorHandlers,
} as Record<OperationId, OperationHandler>;
