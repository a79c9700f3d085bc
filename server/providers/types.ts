/** What a data provider is: the upstream behind an operation, real or the built-in sandbox. */
import type { ErrorCode } from '../../generated/errors.ts';
import type { OperationId } from '../../generated/operations.ts';

/** Operations answered synchronously by a provider: their `data` comes straight from it. */
export const DATA_OPERATION_IDS = [
  'scrapeWebPage', 'searchWeb', 'mapWebsite', 'extractWebData', 'listCollectionVideos', 'getPriceHistory', 'getMicroblogPost', 'listSocialEvents',
] as const satisfies readonly OperationId[];
export type DataOperationId = (typeof DATA_OPERATION_IDS)[number];

/** Every operation a provider can serve, and so every key PROVIDER_ROUTES may have: the data operations and the jobs a live runner fetches pages for. */
export const PROVIDER_OPERATION_IDS: readonly OperationId[] = [...DATA_OPERATION_IDS, 'crawlWebsite', 'batchScrapeWebPages'];

export interface ProviderCall {
  operationId: DataOperationId;
  /** Query parameters as validated by the contract: integers and booleans already typed; absent ones absent. */
  query: Record<string, unknown>;
  /** Aborted when the caller's time runs out or the server shuts down. */
  signal: AbortSignal;
}

/** One provider: answers the `data` of the operations routed to it. */
export interface DataProvider {
  readonly name: string;
  fetch(call: ProviderCall): Promise<Record<string, unknown>>;
}

/** A failure of the upstream, with the contract's error code for it and the headers its answer carries (`Retry-After`). */
export class ProviderError extends Error {
  readonly code: ErrorCode;
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.code = code;
    this.headers = headers;
  }
}
