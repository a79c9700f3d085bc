/** What the search adapters share as a provider: their dependencies and the one operation they serve. */
import type { Logger } from 'pino';
import { ProviderError, type ProviderCall } from '../types.ts';
import type { ReadPage } from '../read-page.ts';

export interface SearchProviderDeps {
  logger: Logger;
  /** Reads a result page for `include_content` (build-providers.ts: the web provider's scrape, under the address policy). */
  readPage: ReadPage;
  /** Bounds of the upstream client, over the adapter's defaults. */
  limits?: Partial<{ timeoutMs: number; maxResponseBytes: number; maxInFlight: number }>;
  /** The clock `time_range` is checked against; Date.now by default. */
  now?: () => number;
}

/** A search adapter serves `web/search` only: routed to anything else (a `PROVIDER_ROUTES` mistake), it is no provider. */
export function assertSearchCall(provider: string, call: ProviderCall): void {
  if (call.operationId !== 'searchWeb') throw new ProviderError('provider_unavailable', `The ${provider} provider serves web/search only, not ${call.operationId}; no credits were used.`);
}
