/** The request as the sandbox sees it: typed readers of query parameters, its canonical form, and opaque cursors. */
import { ProviderError } from '../types.ts';
import { fingerprint, SeededRandom } from './seeded.ts';

export type Query = Record<string, unknown>;

/** The operation id and its query parameters sorted by name, URL-encoded: one string per distinct request. */
export function canonicalRequest(operationId: string, query: Query): string {
  const pairs = Object.keys(query)
    .filter((name) => query[name] !== undefined && query[name] !== null)
    .sort()
    .map((name) => `${encodeURIComponent(name)}=${encodeURIComponent(String(query[name]))}`);
  return `${operationId}?${pairs.join('&')}`;
}

/** A generator seeded from the canonical form of the request. */
export function requestRandom(operationId: string, query: Query): SeededRandom {
  return new SeededRandom(canonicalRequest(operationId, query));
}

/** A string parameter, or `undefined` when absent or empty. */
export function stringParam(query: Query, name: string): string | undefined {
  const value = query[name];
  if (value === undefined || value === null || value === '') return undefined;
  return String(value);
}

/** A string parameter that must be present. */
export function requiredParam(query: Query, name: string): string {
  const value = stringParam(query, name);
  if (value === undefined) throw new ProviderError('invalid_parameters', `The sandbox needs the \`${name}\` parameter.`);
  return value;
}

/** An integer parameter (a number or numeric text), or `fallback`. */
export function intParam(query: Query, name: string, fallback: number): number {
  const value = Number(stringParam(query, name) ?? fallback);
  return Number.isInteger(value) ? value : fallback;
}

/** A boolean parameter (`true`/`false`, typed or text), or `fallback`. */
export function boolParam(query: Query, name: string, fallback: boolean): boolean {
  const value = query[name];
  if (typeof value === 'boolean') return value;
  if (value === 'true') return true;
  if (value === 'false') return false;
  return fallback;
}

/** A comma-separated list parameter, trimmed, empty items and repeats dropped, or `fallback`'s items. */
export function listParam(query: Query, name: string, fallback: string): string[] {
  const items = (stringParam(query, name) ?? fallback).split(',').map((item) => item.trim()).filter(Boolean);
  return [...new Set(items)];
}

/** An opaque cursor for `position` of one list, bound to the request's other parameters. */
export function encodeCursor(operationId: string, query: Query, position: number): string {
  return Buffer.from(`sbx1:${position}:${listFingerprint(operationId, query)}`).toString('base64url');
}

/** The position a cursor names (0 without one); a cursor not issued for this list answers `invalid_parameters`. */
export function decodeCursor(operationId: string, query: Query): number {
  const cursor = stringParam(query, 'cursor');
  if (cursor === undefined) return 0;
  const match = /^sbx1:(\d{1,6}):([0-9a-f]{12})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match || match[2] !== listFingerprint(operationId, query)) {
    throw new ProviderError('invalid_parameters', 'The cursor was not issued for this list and these parameters.');
  }
  return Number(match[1]);
}

function listFingerprint(operationId: string, query: Query): string {
  const { cursor: _cursor, ...rest } = query;
  return fingerprint(canonicalRequest(operationId, rest));
}
