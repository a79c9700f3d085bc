/**
 * Calls to one operator-configured upstream (SearXNG, Brave, Firecrawl, a model server): its base
 * URL is trusted configuration, so loopback and intranet addresses work and the user-URL address
 * policy does not apply. Every call is bounded in time, in response size and in calls in flight;
 * every failure becomes the caller's error through the one table (upstream-failure.ts).
 */
import type { Logger } from 'pino';
import { Pool } from 'undici';
import { InFlightLimit } from './in-flight-limit.ts';
import { upstreamFailure, type UpstreamFailure } from './upstream-failure.ts';

export interface UpstreamClientConfig {
  /** How messages and logs name the upstream (`SearXNG`), never its address. */
  name: string;
  /** Where the upstream answers; a path here prefixes every request's path; user:password becomes Basic authorization. */
  baseUrl: string;
  timeoutMs: number;
  maxResponseBytes: number;
  maxInFlight: number;
  /** Sent with every request (credentials: they are never logged). */
  headers?: Record<string, string>;
}

export interface UpstreamRequest {
  method: 'GET' | 'POST';
  /** Below the base URL's path: `/search`. */
  path: string;
  /** Absent (undefined) values are left out. */
  query?: Record<string, string | number | boolean | undefined>;
  /** Sent as JSON. */
  body?: unknown;
  headers?: Record<string, string>;
  /**
   * Statuses besides 2xx whose JSON body the adapter reads itself, because the upstream documents
   * what its body says there (FxTwitter's 401 `PRIVATE_TWEET` is a post, not a credential, problem).
   */
  readStatuses?: readonly number[];
  /** The caller's: when it aborts, the call stops and rejects with its reason. */
  signal: AbortSignal;
}

export interface UpstreamAnswer {
  status: number;
  /** Names in lower case. */
  headers: Record<string, string>;
  /** The parsed JSON; null for an empty body. */
  body: unknown;
}

/** Raised inside a call to carry the table's failure out of it. */
class Failed extends Error {
  readonly failure: UpstreamFailure;

  constructor(failure: UpstreamFailure) {
    super(failure.kind);
    this.failure = failure;
  }
}

const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL']);

export class UpstreamClient {
  private readonly pool: Pool;
  private readonly limit: InFlightLimit;
  private readonly basePath: string;
  private readonly baseHeaders: Record<string, string>;
  private readonly config: UpstreamClientConfig;
  private readonly logger: Logger;

  constructor(config: UpstreamClientConfig, logger: Logger) {
    this.config = config;
    this.logger = logger;
    const base = new URL(config.baseUrl);
    this.basePath = base.pathname.replace(/\/+$/, '');
    const authorization: Record<string, string> = base.username
      ? { authorization: `Basic ${Buffer.from(`${decodeURIComponent(base.username)}:${decodeURIComponent(base.password)}`).toString('base64')}` }
      : {};
    this.baseHeaders = { accept: 'application/json', ...authorization, ...config.headers };
    this.pool = new Pool(base.origin, { connections: config.maxInFlight, pipelining: 1 });
    this.limit = new InFlightLimit(config.maxInFlight);
  }

  /** One JSON call: the 2xx answer (or one of `readStatuses`) parsed, or a ProviderError from the failure table; the caller's abort rejects with its reason. */
  async request(request: UpstreamRequest): Promise<UpstreamAnswer> {
    const timeout = AbortSignal.timeout(this.config.timeoutMs);
    const signal = AbortSignal.any([request.signal, timeout]);
    try {
      return await this.limit.run(signal, () => this.exchange(request, signal));
    } catch (error) {
      if (request.signal.aborted) throw request.signal.reason;
      throw upstreamFailure(this.config.name, this.failureOf(error, timeout.aborted), this.logger);
    }
  }

  /** Closes the connections (at shutdown). */
  async close(): Promise<void> {
    await this.pool.close();
  }

  private async exchange(request: UpstreamRequest, signal: AbortSignal): Promise<UpstreamAnswer> {
    const headers: Record<string, string> = { ...this.baseHeaders, ...request.headers };
    if (request.body !== undefined) headers['content-type'] = 'application/json';
    const answer = await this.pool.request({
      method: request.method,
      path: this.basePath + request.path + queryString(request.query),
      headers,
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
      signal,
    });
    const answerHeaders = flatHeaders(answer.headers);
    const read = (answer.statusCode >= 200 && answer.statusCode < 300) || (request.readStatuses ?? []).includes(answer.statusCode);
    if (!read) {
      discard(answer.body);
      throw new Failed({ kind: 'status', status: answer.statusCode, headers: answerHeaders });
    }
    const text = await boundedText(answer.body, answerHeaders, this.config.maxResponseBytes);
    return { status: answer.statusCode, headers: answerHeaders, body: parsedJson(text, answerHeaders['content-type']) };
  }

  private failureOf(error: unknown, timedOut: boolean): UpstreamFailure {
    if (error instanceof Failed) return error.failure;
    if (timedOut) return { kind: 'timeout', timeoutMs: this.config.timeoutMs };
    const problem = error as { code?: string; message?: string; cause?: { code?: string; message?: string } };
    const cause = problem.cause ?? problem;
    if (cause.code && UNREACHABLE_CODES.has(cause.code)) return { kind: 'unreachable', cause: cause.code };
    return { kind: 'unreadable', what: `a broken answer (${cause.code ?? cause.message ?? 'connection closed'})` };
  }
}

function queryString(query: UpstreamRequest['query']): string {
  const parameters = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined) parameters.set(name, String(value));
  }
  const text = parameters.toString();
  return text ? `?${text}` : '';
}

function flatHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

type AnswerBody = AsyncIterable<Buffer> & { destroy(): unknown; on(event: 'error', listener: () => void): unknown };

/** Stops reading an answer; undici reports that as an error on the stream, which nobody needs. */
function discard(body: AnswerBody): void {
  body.on('error', () => {});
  body.destroy();
}

async function boundedText(body: AnswerBody, headers: Record<string, string>, maxBytes: number): Promise<string> {
  const tooLarge = new Failed({ kind: 'too_large', maxBytes });
  if (Number(headers['content-length'] ?? 0) > maxBytes) {
    discard(body);
    throw tooLarge;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > maxBytes) {
      discard(body);
      throw tooLarge;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function parsedJson(text: string, contentType: string | undefined): unknown {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  if (contentType?.toLowerCase().includes('html') || trimmed.startsWith('<')) throw new Failed({ kind: 'unreadable', what: 'HTML instead of JSON' });
  try {
    return JSON.parse(trimmed);
  } catch {
    throw new Failed({ kind: 'unreadable', what: 'a body that is not JSON' });
  }
}
