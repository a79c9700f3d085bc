/**
 * Where an error's `doc_url` points: the rendered reference served at `/docs` beside `/v1`, at the
 * heading of its code in the Errors section, reached at the address the caller used.
 */
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { ErrorCode } from '../generated/errors.ts';

/** The path the mock and the server serve the rendered reference at. */
export const DOCS_PATH = '/docs';

/** `host[:port]`: a DNS name or IPv4 address, or a bracketed IPv6 address, and an optional port. */
const HOST_HEADER = /^(?:\[[0-9a-f:.]+\]|[a-z0-9](?:[a-z0-9.-]{0,251}[a-z0-9])?)(?::(\d{1,5}))?$/i;

/** The anchor Redoc renders for the heading `### code` of the info description's Errors section. */
export function errorDocUrl(docsBase: string, code: ErrorCode): string {
  return `${docsBase}#section/${code}`;
}

/** A Host header that is exactly `host[:port]`, or null: nothing else may reach a link. */
function validHost(host: string | undefined): string | null {
  const match = host === undefined ? null : HOST_HEADER.exec(host);
  if (!match || Number(match[1] ?? 0) > 65_535) return null;
  return host!.toLowerCase();
}

/** The address the connection was accepted on, for a request without a usable Host header. */
function localHost(request: IncomingMessage): string {
  const address = (request.socket.localAddress ?? '127.0.0.1').replace(/^::ffff:(?=\d+\.)/, '');
  return `${address.includes(':') ? `[${address}]` : address}:${request.socket.localPort}`;
}

/**
 * The reference's address for this request: under `publicBaseUrl` when the operator set one (a
 * deployment behind a proxy), else from the scheme and Host the caller used. The Host header is
 * used for this link only, and only when it is a plain `host[:port]`.
 */
export function docsBaseUrl(request: IncomingMessage, publicBaseUrl: string | null = null): string {
  if (publicBaseUrl) return `${publicBaseUrl.replace(/\/+$/, '')}${DOCS_PATH}`;
  const scheme = (request.socket as TLSSocket).encrypted ? 'https' : 'http';
  return `${scheme}://${validHost(request.headers.host) ?? localHost(request)}${DOCS_PATH}`;
}
