/**
 * The one table of upstream failures: what an operator-configured upstream's answer (or silence)
 * becomes for the caller. Every adapter turns its upstream's failures into a ProviderError here.
 */
import type { Logger } from 'pino';
import {
  upstreamCredentialRefused, upstreamFailedAnswer, upstreamRateLimited, upstreamRejectedRequest, upstreamSaysNotFound,
  upstreamTookTooLong, upstreamTooLarge, upstreamUnreachable,
} from '../../lib/error-messages.ts';
import { ProviderError } from '../providers/types.ts';

/** What went wrong with one upstream call. */
export type UpstreamFailure =
  /** The upstream answered with a status that is not 2xx. */
  | { kind: 'status'; status: number; headers: Record<string, string> }
  /** The upstream answered 2xx, but its body says the thing does not exist. */
  | { kind: 'not_found' }
  /** The upstream answered 2xx with a body this service cannot read (`what`: `HTML instead of JSON`, …). */
  | { kind: 'unreadable'; what: string }
  | { kind: 'too_large'; maxBytes: number }
  | { kind: 'timeout'; timeoutMs: number }
  /** No connection: refused, host name not resolved, unreachable network. `cause` goes to the log only. */
  | { kind: 'unreachable'; cause: string };

/** The caller's error for a failed upstream call; credential and reachability problems are logged at error level for the operator. */
export function upstreamFailure(provider: string, failure: UpstreamFailure, logger: Logger, now: () => number = Date.now): ProviderError {
  switch (failure.kind) {
    case 'status': return statusFailure(provider, failure.status, failure.headers, logger, now);
    case 'not_found': return new ProviderError('upstream_not_found', upstreamSaysNotFound(provider, null));
    case 'unreadable':
      logger.warn({ provider, problem: failure.what }, 'upstream answered a body that cannot be read');
      return new ProviderError('upstream_failed', upstreamFailedAnswer(provider, failure.what));
    case 'too_large':
      logger.warn({ provider, maxBytes: failure.maxBytes }, 'upstream answer over the size bound');
      return new ProviderError('upstream_failed', upstreamTooLarge(provider, failure.maxBytes));
    case 'timeout':
      logger.warn({ provider, timeoutMs: failure.timeoutMs }, 'upstream did not answer in time');
      return new ProviderError('upstream_timeout', upstreamTookTooLong(provider, failure.timeoutMs));
    case 'unreachable':
      logger.error({ provider, cause: failure.cause }, `${provider} cannot be reached: check its URL in the configuration`);
      return new ProviderError('provider_unavailable', upstreamUnreachable(provider));
  }
}

function statusFailure(provider: string, status: number, headers: Record<string, string>, logger: Logger, now: () => number): ProviderError {
  if (status === 401 || status === 403) {
    logger.error({ provider, status }, `${provider} refuses the operator's credential: check its key in the configuration`);
    return new ProviderError('provider_unavailable', upstreamCredentialRefused(provider, status));
  }
  if (status === 429 || status === 402) {
    const retryAfter = retryAfterSeconds(headers, now());
    logger.warn({ provider, status, retryAfter }, 'upstream throttles this service');
    return new ProviderError('upstream_rate_limited', upstreamRateLimited(provider, status, retryAfter), retryAfter === undefined ? {} : { 'Retry-After': String(retryAfter) });
  }
  if (status === 404 || status === 410) return new ProviderError('upstream_not_found', upstreamSaysNotFound(provider, status));
  if (status === 408 || status === 504) {
    logger.warn({ provider, status }, 'upstream timed out');
    return new ProviderError('upstream_timeout', upstreamFailedAnswer(provider, String(status)));
  }
  if (status >= 400 && status < 500) {
    logger.warn({ provider, status }, 'upstream rejected the request');
    return new ProviderError('upstream_rejected', upstreamRejectedRequest(provider, status));
  }
  logger.warn({ provider, status }, 'upstream failed');
  return new ProviderError('upstream_failed', upstreamFailedAnswer(provider, String(status)));
}

/** Headers that say when a rate limit resets, each with the header that says whether that limit is exhausted. */
const RESET_HEADERS = [
  { reset: 'x-ratelimit-reset', remaining: 'x-ratelimit-remaining' },
  { reset: 'x-rate-limit-reset', remaining: 'x-rate-limit-remaining' },
  { reset: 'x-ratelimit-reset-requests', remaining: 'x-ratelimit-remaining-requests' },
  { reset: 'x-ratelimit-reset-tokens', remaining: 'x-ratelimit-remaining-tokens' },
] as const;

/** Epoch seconds are larger than any delay an upstream would give (about 31 years). */
const EPOCH_SECONDS_FROM = 1e9;

/**
 * Seconds to wait, from the upstream's `Retry-After` (seconds or an HTTP date) or its rate-limit
 * reset headers: `x-ratelimit-reset` in seconds or epoch seconds (X spells it `x-rate-limit-reset`), Brave's per-window lists
 * (`1, 1419704`, the window whose remaining count is 0), OpenAI's durations (`6m0s`, `1s`, `20ms`).
 * Rounded up, at least 1; undefined when the upstream does not say.
 */
export function retryAfterSeconds(headers: Record<string, string>, nowMs: number): number | undefined {
  const lower = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
  const retryAfter = lower['retry-after'];
  if (retryAfter !== undefined) {
    const seconds = /^\s*\d+(\.\d+)?\s*$/.test(retryAfter) ? Number(retryAfter) : (Date.parse(retryAfter) - nowMs) / 1000;
    if (Number.isFinite(seconds)) return atLeastOne(seconds);
  }
  const candidates: { seconds: number; exhausted: boolean }[] = [];
  for (const { reset, remaining } of RESET_HEADERS) {
    const resets = listOf(lower[reset]).map((value) => delaySeconds(value, nowMs));
    const remainders = listOf(lower[remaining]).map(Number);
    resets.forEach((seconds, index) => {
      if (seconds !== undefined) candidates.push({ seconds, exhausted: remainders[index] === 0 });
    });
  }
  const exhausted = candidates.filter((candidate) => candidate.exhausted);
  const chosen = (exhausted.length > 0 ? exhausted : candidates).map((candidate) => candidate.seconds);
  return chosen.length === 0 ? undefined : atLeastOne(Math.max(...chosen));
}

function listOf(value: string | undefined): string[] {
  return value === undefined ? [] : value.split(',').map((part) => part.trim()).filter((part) => part !== '');
}

function delaySeconds(value: string, nowMs: number): number | undefined {
  if (/^\d+(\.\d+)?$/.test(value)) {
    const number = Number(value);
    return number >= EPOCH_SECONDS_FROM ? number - nowMs / 1000 : number;
  }
  const parts = [...value.matchAll(/(\d+(?:\.\d+)?)(ms|h|m|s)/g)];
  if (parts.length === 0 || parts.map((part) => part[0]).join('') !== value) return undefined;
  const unit = { ms: 0.001, s: 1, m: 60, h: 3600 } as const;
  return parts.reduce((total, part) => total + Number(part[1]) * unit[part[2] as keyof typeof unit], 0);
}

function atLeastOne(seconds: number): number {
  return Math.max(1, Math.ceil(seconds));
}
