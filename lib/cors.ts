/**
 * CORS, decided once for the service and the mock: none by default (API keys belong on servers,
 * not in browsers). An operator, or a frontend developer running the mock, may allow browser
 * calls from chosen origins with `CORS_ORIGINS`: then a preflight from an allowed origin is
 * answered 204, and answers to it expose the envelope headers. Any other OPTIONS request is what
 * it is without CORS: a 405 `method_not_allowed` envelope with `Allow`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { matchRoute } from './contract-routes.ts';

/** The origins allowed to call from a browser: a list, or `*` for any. */
export type CorsOrigins = readonly string[] | '*';

/** The request headers a browser may send: the contract's, and `prefer` on the mock. */
export const CORS_REQUEST_HEADERS = ['x-api-key', 'content-type', 'idempotency-key', 'cache-control'] as const;

/** The answer headers a browser may read. */
const EXPOSED_HEADERS = ['X-Request-Id', 'X-Credits-Used', 'X-Credits-Remaining', 'X-Cache', 'Idempotent-Replayed', 'Retry-After', 'RateLimit', 'RateLimit-Policy', 'Allow'].join(', ');

/** How long a browser may reuse a preflight's answer, in seconds. */
const PREFLIGHT_MAX_AGE_SECONDS = 600;

/** `scheme://host[:port]`: a host name, an IPv4 or a bracketed IPv6 address; no path, no wildcard. */
const ORIGIN = /^[a-z][a-z0-9+.-]*:\/\/([a-z0-9.-]+|\[[0-9a-f:.]+\])(:\d{1,5})?$/i;

/**
 * `CORS_ORIGINS` (comma-separated `scheme://host[:port]`, or `*`): null when unset or empty.
 * Throws an Error whose message names the variable and the bad value.
 */
export function parseCorsOrigins(text: string | undefined, name = 'CORS_ORIGINS'): CorsOrigins | null {
  if (text === undefined || text.trim() === '') return null;
  if (text.trim() === '*') return '*';
  const origins = text.split(',').map((origin) => origin.trim()).filter(Boolean);
  const bad = origins.find((origin) => !ORIGIN.test(origin));
  if (bad !== undefined) throw new Error(`${name} must be * or a comma-separated list of origins such as https://app.example.com,http://localhost:5173 (scheme://host[:port], no path), got "${bad}"`);
  return origins.map((origin) => origin.toLowerCase());
}

function allowed(origins: CorsOrigins, origin: string): boolean {
  return origins === '*' || origins.includes(origin.toLowerCase());
}

/**
 * Applies the CORS policy to a request: answers an allowed preflight (returns true: the answer is
 * sent), or adds the headers an allowed origin's answer carries (returns false: answer as usual).
 * `basePath` is the contract's `/v1`; `requestHeaders` the headers a browser may send.
 */
export function applyCors(origins: CorsOrigins | null, request: IncomingMessage, response: ServerResponse, basePath: string, requestHeaders: readonly string[] = CORS_REQUEST_HEADERS): boolean {
  if (!origins) return false;
  response.setHeader('Vary', 'Origin');
  const origin = request.headers.origin;
  if (!origin || !allowed(origins, origin)) return false;
  response.setHeader('Access-Control-Allow-Origin', origin);

  const path = new URL(request.url ?? '/', 'http://host.invalid').pathname;
  const isPreflight = request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined;
  const route = path.startsWith(`${basePath}/`) ? matchRoute('OPTIONS', path.slice(basePath.length)) : { kind: 'unknown-path' as const };
  if (!isPreflight || route.kind !== 'wrong-method') {
    response.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS);
    return false;
  }
  response.writeHead(204, {
    'Access-Control-Allow-Methods': route.allow.join(', '),
    'Access-Control-Allow-Headers': requestHeaders.join(', '),
    'Access-Control-Max-Age': String(PREFLIGHT_MAX_AGE_SECONDS),
  });
  response.end();
  return true;
}
