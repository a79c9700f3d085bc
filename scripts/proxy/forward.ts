/**
 * Forwards one call to the upstream and its answer back, unchanged: the method, the path and query
 * (below the upstream's base), every end-to-end header with its spelling (x-api-key among them)
 * and the body bytes; then the answer's status, end-to-end headers and body bytes. Only what
 * belongs to one connection is not forwarded (RFC 9110 §7.6.1: Connection, Keep-Alive,
 * Transfer-Encoding…), and Host names the upstream, as at any reverse proxy.
 */
import { request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { request as httpsRequest } from 'node:https';

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'host']);

/** What passed through, for the checks: the request as sent and the answer as received. */
export interface Exchange {
  method: string;
  /** Path and query as the client sent them. */
  target: string;
  requestHeaders: Record<string, string>;
  requestBody: Buffer;
  status: number;
  responseHeaders: Headers;
  responseBody: Buffer;
}

/** Raw headers (name, value, name, value…) without the hop-by-hop ones, spelling and order kept. */
function endToEnd(rawHeaders: string[]): string[] {
  const kept: string[] = [];
  for (let index = 0; index < rawHeaders.length; index += 2) {
    if (!HOP_BY_HOP.has(rawHeaders[index]!.toLowerCase())) kept.push(rawHeaders[index]!, rawHeaders[index + 1]!);
  }
  return kept;
}

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function asHeaders(rawHeaders: string[]): Headers {
  const headers = new Headers();
  for (let index = 0; index < rawHeaders.length; index += 2) headers.append(rawHeaders[index]!, rawHeaders[index + 1]!);
  return headers;
}

/**
 * Sends the client's call to `upstreamPrefix` (the upstream's URL before `/v1`) + the call's own
 * path, writes the answer to the client, and returns the exchange; a failure to reach the upstream
 * answers 502 with a plain-text line and rejects.
 */
export async function forward(client: IncomingMessage, answer: ServerResponse, upstreamPrefix: URL): Promise<Exchange> {
  const requestBody = await readAll(client);
  const target = client.url ?? '/';
  const url = new URL(`${upstreamPrefix.pathname.replace(/\/$/, '')}${target}`, upstreamPrefix);
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const headers = [...endToEnd(client.rawHeaders), 'Host', url.host];
  if (requestBody.length > 0 && client.headers['content-length'] === undefined) headers.push('Content-Length', String(requestBody.length));
  const upstream = await new Promise<IncomingMessage>((resolve, reject) => {
    const outgoing = send(url, { method: client.method, headers }, resolve);
    outgoing.once('error', reject);
    outgoing.end(requestBody);
  }).catch((error: Error) => {
    answer.writeHead(502, { 'Content-Type': 'text/plain; charset=utf-8' }).end(`The validation proxy could not reach the upstream ${upstreamPrefix.origin}: ${error.message}\n`);
    throw error;
  });
  const responseBody = await readAll(upstream);
  const responseHeaders = endToEnd(upstream.rawHeaders);
  answer.writeHead(upstream.statusCode ?? 502, upstream.statusMessage, responseHeaders);
  answer.end(responseBody);
  return {
    method: client.method ?? 'GET',
    target,
    requestHeaders: Object.fromEntries(Object.entries(client.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : value ?? ''])),
    requestBody,
    status: upstream.statusCode ?? 502,
    responseHeaders: asHeaders(responseHeaders),
    responseBody,
  };
}
