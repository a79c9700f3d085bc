/**
 * Fetches one page for a user, safely: every URL of the redirect chain is checked, connections go
 * only to public addresses, and time, redirects and size (after decompression) are bounded, so a
 * hostile page (slow, endless, huge, a decompression bomb) costs bounded time and memory.
 */
import type { Readable } from 'node:stream';
import { interceptors, request, type Agent, type Dispatcher } from 'undici';
import { ProviderError } from '../providers/types.ts';
import { checkedUrl, type AddressPolicy } from './address-policy.ts';
import { NON_PUBLIC_ADDRESS } from './guarded-agent.ts';

export interface FetchLimits {
  timeoutMs: number;
  maxBytes: number;
  maxRedirects: number;
}

export const DEFAULT_LIMITS: FetchLimits = { timeoutMs: 30_000, maxBytes: 10 * 1024 * 1024, maxRedirects: 10 };

export interface FetchedPage {
  requestedUrl: string;
  /** The URL after redirects. */
  url: string;
  status: number;
  /** Media type without parameters, or null. */
  contentType: string | null;
  body: Buffer;
}

export interface FetchContext {
  agent: Agent;
  policy: AddressPolicy;
  limits: FetchLimits;
  mobile?: boolean;
  signal?: AbortSignal;
}

const DESKTOP_AGENT = 'Mozilla/5.0 (compatible; WSDQ/1.0; +https://github.com/web-social-data-query-service)';
const MOBILE_AGENT = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 (compatible; WSDQ/1.0)';
export const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** Each agent with content decoding (gzip, deflate, br, zstd) in front, made once per agent. */
const decoding = new WeakMap<Agent, Dispatcher>();

function decodingDispatcher(agent: Agent): Dispatcher {
  let dispatcher = decoding.get(agent);
  if (!dispatcher) {
    dispatcher = agent.compose(interceptors.decompress());
    decoding.set(agent, dispatcher);
  }
  return dispatcher;
}

/**
 * The body, decoded, read no further than `maxBytes`: a decompression bomb stops there. Read by
 * its events rather than an async iterator, which costs a stream-finished watcher and a promise
 * per chunk, a good share of a small page's fetch.
 */
function readBounded(body: Readable, maxBytes: number, url: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    body.on('data', (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > maxBytes) {
        // Destroying the stream stops reading and decoding: no more is read.
        body.destroy();
        reject(new ProviderError('upstream_failed', `The page ${url} is larger than ${maxBytes} bytes.`));
        return;
      }
      chunks.push(chunk);
    });
    body.once('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size)));
    body.once('error', reject);
    // Closed without its end (the connection dropped): what was read is not the page.
    body.once('close', () => reject(new Error('the connection closed before the end of the page')));
  });
}

/** One header of an answer (the first, when it was sent more than once). */
export function header(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * A fetch that got no answer from the host at all: its name could not be resolved, it could not
 * be connected to, or it did not answer in time. A page that answered badly (an error status, too
 * large, too many redirects) is a plain ProviderError.
 */
export class UpstreamUnreached extends ProviderError {}

function failureOf(error: unknown, url: string, timedOut: boolean, timeoutMs: number): ProviderError {
  if (error instanceof ProviderError) return error;
  if (timedOut) return new UpstreamUnreached('upstream_timeout', `The page did not answer within the timeout of ${timeoutMs} ms.`);
  // A connection error comes as it is, or as the cause of another.
  const problem = error as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  const cause = problem.cause ?? problem;
  if (cause?.code === NON_PUBLIC_ADDRESS) return new ProviderError('url_not_allowed', `${url} targets a non-public address: ${cause.message ?? ''}`.trim());
  if (cause?.code === 'ENOTFOUND' || cause?.code === 'EAI_AGAIN') return new UpstreamUnreached('upstream_failed', `The host of ${url} could not be resolved.`);
  return new UpstreamUnreached('upstream_failed', `The page ${url} could not be fetched: ${cause?.message ?? (error as Error).message}.`);
}

export interface Exchange {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Decoded (gzip, deflate, br, zstd) and at most `limits.maxBytes`. */
  body: Buffer;
}

export interface ExchangeRequest {
  method?: string;
  headers: Record<string, string>;
  body?: Buffer;
  signal: AbortSignal;
}

/**
 * One HTTP exchange over the guarded pool: the URL checked against the policy, the connection
 * made to a checked address, the body decoded and bounded. Redirects are answered, not followed.
 */
export async function exchange(url: string, context: Pick<FetchContext, 'agent' | 'policy' | 'limits'>, outgoing: ExchangeRequest): Promise<Exchange> {
  checkedUrl(url, context.policy);
  const response = await request(url, {
    dispatcher: decodingDispatcher(context.agent),
    method: (outgoing.method ?? 'GET') as 'GET',
    headers: { ...outgoing.headers, 'accept-encoding': 'gzip, deflate, br' },
    body: outgoing.body,
    signal: outgoing.signal,
  });
  if (REDIRECT_STATUSES.has(response.statusCode)) {
    await response.body.dump();
    return { status: response.statusCode, headers: response.headers, body: Buffer.alloc(0) };
  }
  return { status: response.statusCode, headers: response.headers, body: await readBounded(response.body, context.limits.maxBytes, url) };
}

/**
 * The exchange at the end of `url`'s redirect chain, every hop checked against the address policy
 * before it is requested. 307 and 308 repeat the method and body; other redirects continue as GET.
 */
export async function followRedirects(url: string, context: Pick<FetchContext, 'agent' | 'policy' | 'limits'>, outgoing: ExchangeRequest): Promise<Exchange & { url: string }> {
  let current = checkedUrl(url, context.policy).href;
  let request = outgoing;
  for (let hop = 0; ; hop++) {
    const answer = await exchange(current, context, request);
    const location = header(answer.headers, 'location');
    if (!REDIRECT_STATUSES.has(answer.status) || !location) return { ...answer, url: current };
    if (hop >= context.limits.maxRedirects) throw new ProviderError('upstream_failed', `The page ${url} redirects more than ${context.limits.maxRedirects} times.`);
    current = checkedUrl(new URL(location, current).href, context.policy, 'a redirect').href;
    if (answer.status !== 307 && answer.status !== 308) request = { ...request, method: 'GET', body: undefined };
  }
}

/** Fetches `url`, following redirects itself, each hop checked against the address policy. */
export async function fetchPage(url: string, context: FetchContext): Promise<FetchedPage> {
  const timeout = AbortSignal.timeout(context.limits.timeoutMs);
  const signal = context.signal ? AbortSignal.any([context.signal, timeout]) : timeout;
  const headers = { 'user-agent': context.mobile ? MOBILE_AGENT : DESKTOP_AGENT, accept: 'text/html,application/xhtml+xml,application/pdf;q=0.9,*/*;q=0.8' };
  try {
    const answer = await followRedirects(url, context, { headers, signal });
    const contentType = header(answer.headers, 'content-type')?.split(';')[0]?.trim().toLowerCase() || null;
    return { requestedUrl: url, url: answer.url, status: answer.status, contentType, body: answer.body };
  } catch (error) {
    throw failureOf(error, url, timeout.aborted, context.limits.timeoutMs);
  }
}

/** The contract's error for a page that answered with an error status, or undefined for 2xx. */
export function statusFailure(page: FetchedPage): ProviderError | undefined {
  if (page.status < 400) return undefined;
  if (page.status === 404 || page.status === 410) return new ProviderError('upstream_not_found', `The page answered ${page.status}.`);
  if (page.status < 500) return new ProviderError('upstream_rejected', `The page answered ${page.status}.`);
  return new ProviderError('upstream_failed', `The page answered ${page.status}.`);
}
