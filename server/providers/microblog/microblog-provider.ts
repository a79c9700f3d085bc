/** What the microblog adapters (x, fxtwitter) share: their dependencies, the operation they serve, the post id asked. */
import type { Logger } from 'pino';
import type { components } from '../../../generated/types.ts';
import { ProviderError, type ProviderCall } from '../types.ts';

export type MicroblogPost = components['schemas']['MicroblogPost'];
export type MicroblogMedia = components['schemas']['MicroblogMedia'];

export interface MicroblogProviderDeps {
  logger: Logger;
  /** Bounds of the upstream client, over the adapter's defaults. */
  limits?: Partial<{ timeoutMs: number; maxResponseBytes: number; maxInFlight: number }>;
}

/** A microblog adapter serves `microblog/post` only: routed to anything else (a `PROVIDER_ROUTES` mistake), it is no provider. Answers the post id asked. */
export function microblogPostId(provider: string, call: ProviderCall): string {
  if (call.operationId !== 'getMicroblogPost') throw new ProviderError('provider_unavailable', `The ${provider} provider serves microblog/post only, not ${call.operationId}; no credits were used.`);
  return String(call.query.post_id);
}

/** A count the upstream gave as a non-negative integer, else null (never 0 in its place). */
export function countOrNull(value: unknown): number | null {
  return Number.isInteger(value) && (value as number) >= 0 ? (value as number) : null;
}

/** A string the upstream gave and that is not empty, else null. */
export function textOrNull(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}
