/** Magic inputs that make the sandbox fail like an upstream, so callers can exercise their error paths. */
import type { ErrorCode } from '../../../generated/errors.ts';
import { ProviderError } from '../types.ts';

const MAGIC_HOST = /^fail-([45]\d\d)\.sandbox\.test$/;
const MAGIC_ID = /^fail-?([45]\d\d)$/i;
const MAGIC_POST_ID = /^4000000000000000([45]\d\d)$/;

/** The contract's error code for an upstream answering `status` (4xx or 5xx). */
export function codeForUpstreamStatus(status: number): ErrorCode {
  if (status === 403) return 'provider_policy_denied';
  if (status === 404) return 'upstream_not_found';
  if (status === 504) return 'upstream_timeout';
  return status < 500 ? 'upstream_rejected' : 'upstream_failed';
}

/** Throws for a URL whose host is `fail-<status>.sandbox.test`. */
export function failOnMagicUrl(url: string): void {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    throw new ProviderError('invalid_parameters', `Not an absolute URL: ${url}`);
  }
  const match = MAGIC_HOST.exec(host);
  if (match) fail(Number(match[1]), `The sandbox upstream answered ${match[1]} for ${url}.`);
}

/** Throws for an id or symbol `fail-<status>` or `fail<status>` (any case). */
export function failOnMagicId(value: string): void {
  const match = MAGIC_ID.exec(value);
  if (match) fail(Number(match[1]), `The sandbox upstream answered ${match[1]} for ${value}.`);
}

/** Throws for a post id `4000000000000000<status>` (19 digits ending in the status). */
export function failOnMagicPostId(postId: string): void {
  const match = MAGIC_POST_ID.exec(postId);
  if (match) fail(Number(match[1]), `The sandbox upstream answered ${match[1]} for post ${postId}.`);
}

function fail(status: number, message: string): never {
  throw new ProviderError(codeForUpstreamStatus(status), message);
}
