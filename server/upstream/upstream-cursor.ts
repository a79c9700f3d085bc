/**
 * The service's opaque cursor around an upstream's own (a Meetup `endCursor`, a TikTok `cursor`):
 * the caller never sees the upstream's cursor raw, and a cursor issued for one query is refused on
 * another, as the contract says of every cursor. It is base64url of a version, a fingerprint of the
 * query without its cursor, and the upstream's cursor; it binds, it does not hide from a determined
 * reader, and it is not a secret.
 */
import { createHash } from 'node:crypto';
import { invalidParameters } from '../../lib/error-messages.ts';
import { ProviderError } from '../providers/types.ts';

const VERSION = 'up1';

/** The query's parameters but `cursor`, sorted by name, with the operation: what a cursor is bound to. */
function queryFingerprint(operationId: string, query: Record<string, unknown>): string {
  const pairs = Object.keys(query)
    .filter((name) => name !== 'cursor' && query[name] !== undefined && query[name] !== null)
    .sort()
    .map((name) => `${encodeURIComponent(name)}=${encodeURIComponent(String(query[name]))}`);
  return createHash('sha256').update(`${operationId}?${pairs.join('&')}`).digest('hex').slice(0, 16);
}

/** The cursor the caller gets for the next page after `upstreamCursor`, bound to this query. */
export function wrapCursor(operationId: string, query: Record<string, unknown>, upstreamCursor: string): string {
  return Buffer.from(JSON.stringify([VERSION, queryFingerprint(operationId, query), upstreamCursor])).toString('base64url');
}

/**
 * The upstream's cursor inside the query's `cursor`, or undefined when the query has none; a cursor
 * not issued by `wrapCursor` for this very query is a 422 `invalid_parameters`.
 */
export function unwrapCursor(operationId: string, query: Record<string, unknown>): string | undefined {
  const cursor = query.cursor;
  if (cursor === undefined || cursor === null || cursor === '') return undefined;
  let parts: unknown;
  try {
    parts = JSON.parse(Buffer.from(String(cursor), 'base64url').toString('utf8'));
  } catch {
    parts = undefined;
  }
  if (!Array.isArray(parts) || parts.length !== 3 || parts[0] !== VERSION || typeof parts[2] !== 'string' || parts[1] !== queryFingerprint(operationId, query)) {
    throw new ProviderError('invalid_parameters', invalidParameters(['query.cursor was not issued for this list and these parameters']));
  }
  return parts[2];
}
