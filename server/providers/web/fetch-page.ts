/**
 * Fetches one page for a user, safely: every URL of the redirect chain is checked, connections go
 * only to public addresses, and time, redirects and size (after decompression) are bounded, so a
 * hostile page (slow, endless, huge, a decompression bomb) costs bounded time and memory.
 */
import { fetch, type Agent } from 'undici';
import { ProviderError } from '../types.ts';
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
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

async function readBounded(body: ReadableStream<Uint8Array> | null, maxBytes: number, url: string): Promise<Buffer> {
  if (!body) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new ProviderError('upstream_failed', `The page ${url} is larger than ${maxBytes} bytes.`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

function failureOf(error: unknown, url: string, timedOut: boolean, timeoutMs: number): ProviderError {
  if (error instanceof ProviderError) return error;
  if (timedOut) return new ProviderError('upstream_timeout', `The page did not answer within the timeout of ${timeoutMs} ms.`);
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  if (cause?.code === NON_PUBLIC_ADDRESS) return new ProviderError('url_not_allowed', `${url} targets a non-public address: ${cause.message ?? ''}`.trim());
  if (cause?.code === 'ENOTFOUND' || cause?.code === 'EAI_AGAIN') return new ProviderError('upstream_failed', `The host of ${url} could not be resolved.`);
  return new ProviderError('upstream_failed', `The page ${url} could not be fetched: ${cause?.message ?? (error as Error).message}.`);
}

/** Fetches `url`, following redirects itself, each hop checked against the address policy. */
export async function fetchPage(url: string, context: FetchContext): Promise<FetchedPage> {
  const { limits } = context;
  const timeout = AbortSignal.timeout(limits.timeoutMs);
  const signal = context.signal ? AbortSignal.any([context.signal, timeout]) : timeout;
  let current = checkedUrl(url, context.policy).href;
  try {
    for (let hop = 0; ; hop++) {
      const response = await fetch(current, {
        dispatcher: context.agent,
        redirect: 'manual',
        signal,
        headers: { 'user-agent': context.mobile ? MOBILE_AGENT : DESKTOP_AGENT, accept: 'text/html,application/xhtml+xml,application/pdf;q=0.9,*/*;q=0.8' },
      });
      const location = response.headers.get('location');
      if (REDIRECT_STATUSES.has(response.status) && location) {
        await response.body?.cancel();
        if (hop >= limits.maxRedirects) throw new ProviderError('upstream_failed', `The page ${url} redirects more than ${limits.maxRedirects} times.`);
        current = checkedUrl(new URL(location, current).href, context.policy, 'a redirect').href;
        continue;
      }
      const body = await readBounded(response.body as ReadableStream<Uint8Array> | null, limits.maxBytes, current);
      const contentType = response.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase() || null;
      return { requestedUrl: url, url: current, status: response.status, contentType, body };
    }
  } catch (error) {
    throw failureOf(error, current, timeout.aborted, limits.timeoutMs);
  }
}

/** The contract's error for a page that answered with an error status, or undefined for 2xx. */
export function statusFailure(page: FetchedPage): ProviderError | undefined {
  if (page.status < 400) return undefined;
  if (page.status === 404 || page.status === 410) return new ProviderError('upstream_not_found', `The page answered ${page.status}.`);
  if (page.status < 500) return new ProviderError('upstream_rejected', `The page answered ${page.status}.`);
  return new ProviderError('upstream_failed', `The page answered ${page.status}.`);
}
