/**
 * The mock's HTTP server: the contract's routes at `/v1`, answered by Prism, with every answer in
 * the contract's envelope and headers. Reads top to bottom: CORS, route, key, selection, body,
 * Prism, then the envelope's headers. `/docs` serves the rendered reference, where error links point.
 */
import { queryRecord } from '../lib/query-record.ts';
import { requestTarget, type RequestTarget } from './request-target.ts';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { OperationRow } from '../generated/operations.ts';
import { errorCatalog, type ErrorCode } from '../generated/errors.ts';
import { matchRoute } from '../lib/contract-routes.ts';
import { applyCors, CORS_REQUEST_HEADERS, type CorsOrigins } from '../lib/cors.ts';
import { DOCS_PATH, docsBaseUrl, errorDocUrl } from '../lib/docs-link.ts';
import { envelopeHeaders, errorAnswer, type AnswerContext, type EnvelopeBody, type XCache } from '../lib/envelope.ts';
import { createHttpServer } from '../lib/http-server.ts';
import { sendReferencePage } from '../lib/reference-page.ts';
import { missingBodyMessage } from '../lib/request-body.ts';
import { DEFAULT_RATE_LIMIT_POLICY, rateLimitFields } from '../lib/rate-limit-fields.ts';
import { newRequestId } from '../lib/request-id.ts';
import { crossParameterProblem } from '../lib/cross-parameter-rules.ts';
import * as messages from '../lib/error-messages.ts';
import { emptyValueProblems } from './empty-values.ts';
import type { PrismEngine } from './prism-engine.ts';
import { readPreferences, takeSelectionQuery, unmetPreference } from './preferences.ts';
import { jsonWithKeptValues } from './kept-json.ts';
import { decodedJsonBody, readBody } from './read-body.ts';
import { refusedTarget } from './address-check.ts';
import { selectedError } from './selected-error.ts';
import { shapeSuccess } from './shape-answer.ts';
import { requestProblems } from './validation-message.ts';

const BASE_PATH = '/v1';

/** The balance the mock reports on the errors it builds itself (it keeps no accounts). */
export const MOCK_BALANCE = 5000;

/** A browser may send Prism's `Prefer` to the mock, beside the contract's headers. */
const MOCK_CORS_REQUEST_HEADERS = [...CORS_REQUEST_HEADERS, 'prefer'];

export interface MockServerOptions {
  engine: PrismEngine;
  /** Receives one line per request. */
  log: (line: string) => void;
  /** Origins allowed to call from a browser (`CORS_ORIGINS`); none when absent. */
  corsOrigins?: CorsOrigins | null;
}

interface Answer {
  status: number;
  body: EnvelopeBody;
  xCache: XCache;
  headers?: Record<string, string>;
}

/**
 * The RateLimit fields of the default policy, as the server sends them to a key on its first call
 * of a window (the mock counts nothing): the window's end by the clock.
 */
function rateLimitOfDefaultPolicy(nowMs: number): Record<string, string> {
  const { requests, windowSeconds } = DEFAULT_RATE_LIMIT_POLICY;
  return rateLimitFields(DEFAULT_RATE_LIMIT_POLICY, requests - 1, windowSeconds - (Math.floor(nowMs / 1000) % windowSeconds));
}

/** Thrown on the way to an answer: becomes the error envelope of `code`. */
class ErrorAnswer extends Error {
  readonly code: ErrorCode;
  readonly context: AnswerContext;
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, message: string, context: AnswerContext, headers: Record<string, string> = {}) {
    super(message);
    this.code = code;
    this.context = context;
    this.headers = headers;
  }
}

function flatHeaders(request: IncomingMessage): Record<string, string> {
  const given = request.headers;
  const headers: Record<string, string> = {};
  for (const name of Object.keys(given)) {
    const value = given[name];
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

/** Headers of Prism's answer the mock sets itself (CORS only when asked for). */
const HEADERS_SET_BY_THE_MOCK = /^(idempotent-replayed|content-type|x-request-id|x-credits-used|x-credits-remaining|x-cache|ratelimit|ratelimit-policy|access-control-allow-origin)$/i;

/** Prism's headers of a kept answer (frozen, so they cannot change) and those passed on from them. */
const passedOfKept = new WeakMap<object, Record<string, string>>();

/** The headers of Prism's answer passed on: Prism fills declared headers from their examples, but not those the mock sets itself. */
function headersPassedOn(headers: Record<string, string>): Record<string, string> {
  const known = passedOfKept.get(headers);
  if (known) return known;
  const passed = Object.fromEntries(Object.entries(headers).filter(([name]) => !HEADERS_SET_BY_THE_MOCK.test(name)));
  if (Object.isFrozen(headers)) passedOfKept.set(headers, Object.freeze(passed));
  return passed;
}

function isEnvelope(body: unknown): body is EnvelopeBody {
  return typeof body === 'object' && body !== null && typeof (body as EnvelopeBody).success === 'boolean';
}

/** Whether this call could be answered from the cache, per the operation's `x-cache`. */
function cacheConsulted(operation: OperationRow, query: URLSearchParams, headers: Record<string, string>): boolean {
  if (!operation.cache) return false;
  if (/(^|,)\s*no-cache\s*(,|$)/i.test(headers['cache-control'] ?? '')) return false;
  if (operation.cache.mode === 'max_age') return Number(query.get(operation.cache.parameter) ?? 0) > 0;
  return query.get('fresh') !== 'true';
}

/**
 * The body, as the server reads it: a JSON-like media type (`application/json`, `application/*+json`)
 * is decoded as its charset and Content-Encoding say (read-body.ts) and parsed, so malformed JSON is
 * `invalid_json_body` either way; only `application/json` is the
 * contract's, so any other label is `unsupported_media_type`.
 */
async function parseJsonBody(request: IncomingMessage, context: AnswerContext): Promise<unknown> {
  const body = await readBody(request);
  if (!body.ok) throw new ErrorAnswer('body_too_large', messages.bodyTooLarge(), context);
  if (body.bytes.length === 0) return undefined;
  const contentType = request.headers['content-type'] ?? '';
  if (!/^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(contentType)) {
    if (body.bytes.toString('utf8').trim() === '') return undefined;
    throw new ErrorAnswer('unsupported_media_type', messages.unsupportedMediaType(contentType), context);
  }
  const decoded = decodedJsonBody(body.bytes, contentType, request.headers['content-encoding']);
  if (!decoded.ok) {
    if ('tooLarge' in decoded) throw new ErrorAnswer('body_too_large', messages.bodyTooLarge(), context);
    if ('unsupported' in decoded) throw new ErrorAnswer('unsupported_media_type', messages.unsupportedBodyEncoding(decoded.unsupported), context);
    throw new ErrorAnswer('malformed_request', messages.undecodableBody(decoded.undecodable.encoding, decoded.undecodable.detail), context);
  }
  if (decoded.text.trim() === '') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(decoded.text);
  } catch (error) {
    throw new ErrorAnswer('invalid_json_body', messages.invalidJsonBody((error as Error).message), context);
  }
  if (!/^application\/json\s*(;|$)/i.test(contentType)) throw new ErrorAnswer('unsupported_media_type', messages.unsupportedMediaType(contentType), context);
  return parsed;
}

/** Whether every percent-encoding in `path` decodes as UTF-8. */
function wellEncoded(path: string): boolean {
  // Without a percent sign there is nothing to decode (most paths).
  if (!path.includes('%')) return true;
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

async function answerOperation(request: IncomingMessage, url: RequestTarget, operation: OperationRow, engine: PrismEngine): Promise<Answer> {
  const context: AnswerContext = { platform: operation.platform, endpoint: operation.path, creditsRemaining: null };
  const headers = flatHeaders(request);
  if (!headers['x-api-key']) {
    throw new ErrorAnswer('api_key_missing', messages.apiKeyMissing(), context);
  }
  context.creditsRemaining = MOCK_BALANCE;
  if (!wellEncoded(url.pathname)) throw new ErrorAnswer('invalid_parameters', messages.invalidParameters([messages.malformedPathEncoding(url.pathname)]), context);

  const query = new URLSearchParams(url.search);
  const selection = readPreferences(headers.prefer, takeSelectionQuery(query));
  if (!selection.ok) throw new ErrorAnswer('invalid_parameters', messages.invalidParameters([selection.problem]), context);
  const unmet = unmetPreference(operation, selection.preferences);
  if (unmet) throw new ErrorAnswer('invalid_parameters', messages.invalidParameters([unmet]), context);
  const unknownParameters: string[] = [];
  for (const name of new Set(query.keys())) {
    if (!operation.queryParameters.includes(name)) unknownParameters.push(`query.${name} is not a parameter of ${operation.operationId}`);
  }
  const empty = emptyValueProblems(operation, query, headers);

  const body = operation.requestBody === 'none' ? (request.resume(), undefined) : await parseJsonBody(request, context);
  // Prism takes a JSON `null` for no body; every body of the contract is an object, as the server checks.
  if (body === null) throw new ErrorAnswer('invalid_parameters', messages.invalidParameters(['body must be object']), context);
  if (body === undefined && operation.requestBody === 'required') throw new ErrorAnswer('invalid_parameters', missingBodyMessage(operation), context);
  const queryValues = queryRecord(query);
  const result = await engine.respond(
    { operationId: operation.operationId, method: operation.method, path: url.pathname.slice(BASE_PATH.length), query: queryValues, headers, body },
    selection.preferences,
  );
  if (result.kind === 'selection-problem') {
    const detail = result.detail.replace(/\.+$/, '');
    if (result.status >= 500) throw new ErrorAnswer('internal_error', `The mock could not answer: ${detail}.`, context);
    throw new ErrorAnswer('invalid_parameters', messages.invalidParameters([`Prefer cannot be met: ${detail}`]), context);
  }
  // Prism drops empty values, then calls a required one missing: the empty value's own problem says more.
  const prismProblems = requestProblems(result.diagnostics).filter((problem) => !empty.locations.some((location) => problem === `${location} is required`));
  const problems = [...unknownParameters, ...empty.problems, ...prismProblems];
  if (problems.length > 0) throw new ErrorAnswer('invalid_parameters', messages.invalidParameters(problems), context);
  const crossProblem = crossParameterProblem(operation.operationId, queryValues, Date.now());
  if (crossProblem) throw new ErrorAnswer('invalid_parameters', messages.invalidParameters([crossProblem]), context);
  const refused = refusedTarget(operation, query, body);
  if (refused) throw new ErrorAnswer(refused.code, refused.message, context);
  if (!isEnvelope(result.body)) throw new ErrorAnswer('internal_error', 'The mock produced an answer outside the envelope.', context);

  const shaped = result.body.success ? await shapeSuccess({ operation, path: url.pathname.slice(BASE_PATH.length), query, body, preferences: selection.preferences, balance: MOCK_BALANCE }, result.body) : undefined;
  if (shaped && !shaped.ok) throw new ErrorAnswer(shaped.code, shaped.message, context);
  const envelope = shaped?.ok ? shaped.envelope : structuredClone(result.body);
  const passedHeaders = headersPassedOn(result.headers);
  if (envelope.success) {
    // The contract fixes these figures; examples and dynamic data must not contradict it.
    envelope.credits_used = operation.creditCost;
    const consulted = cacheConsulted(operation, query, headers);
    if (!consulted) envelope.cached = false;
    return { status: result.status, body: envelope, xCache: consulted ? (envelope.cached ? 'HIT' : 'MISS') : 'BYPASS', headers: passedHeaders };
  }
  const requestId = newRequestId();
  const prismCode = (envelope.error as { code: ErrorCode }).code;
  const selected = selectedError(result.status, prismCode, selection.preferences.exampleKey !== undefined, {
    operation, method: operation.method, pathname: url.pathname, headers, requestId, nowMs: Date.now(), balance: MOCK_BALANCE,
  });
  const built = errorAnswer(selected.code, selected.message, { ...context, creditsRemaining: selected.creditsRemaining }, requestId, docsBaseUrl(request));
  return { status: built.status, body: built.body, xCache: 'BYPASS', headers: { ...passedHeaders, ...selected.headers } };
}

async function answer(request: IncomingMessage, url: RequestTarget, engine: PrismEngine): Promise<Answer> {
  const creditsRemaining = request.headers['x-api-key'] ? MOCK_BALANCE : null;
  const unknownPath: AnswerContext = { platform: 'unknown', endpoint: url.pathname.replace(/^\/v1(?=\/)/, ''), creditsRemaining };
  const method = request.method ?? 'GET';
  if (url.pathname !== BASE_PATH && !url.pathname.startsWith(`${BASE_PATH}/`)) {
    throw new ErrorAnswer('endpoint_not_found', messages.endpointNotFound(method, url.pathname), unknownPath);
  }
  const route = matchRoute(method, url.pathname.slice(BASE_PATH.length));
  if (route.kind === 'unknown-path') throw new ErrorAnswer('endpoint_not_found', messages.endpointNotFound(method, url.pathname), unknownPath);
  if (route.kind === 'wrong-method') {
    const context = { ...unknownPath, platform: url.pathname.split('/')[2] ?? 'unknown' };
    throw new ErrorAnswer('method_not_allowed', messages.methodNotAllowed(url.pathname, method, route.allow), context, { Allow: route.allow.join(', ') });
  }
  return withRateLimit(() => answerOperation(request, url, route.operation, engine));
}

/**
 * Adds the RateLimit fields to an operation's answer, success or error, as the server does for a
 * call with a key: every answer but a 401 (no key, no policy). A selected 429's own fields win.
 */
async function withRateLimit(answerIt: () => Promise<Answer>): Promise<Answer> {
  const fields = rateLimitOfDefaultPolicy(Date.now());
  try {
    const answered = await answerIt();
    return answered.status === 401 ? answered : { ...answered, headers: { ...fields, ...answered.headers } };
  } catch (error) {
    if (!(error instanceof ErrorAnswer) || errorCatalog[error.code].status === 401) throw error;
    throw new ErrorAnswer(error.code, error.message, error.context, { ...fields, ...error.headers });
  }
}

/** The reference's address last given on each connection, with the Host header it was given for. */
const docsBases = new WeakMap<Socket, { host: string | undefined; docsBase: string }>();

/**
 * `docsBaseUrl(request)`, read once per connection and Host: it depends on nothing else (the
 * connection's scheme and local address, the Host header), and checking the Host header costs
 * more than the rest of a request's envelope.
 */
function docsBaseOf(request: IncomingMessage): string {
  const { socket, headers: { host } } = request;
  const known = docsBases.get(socket);
  if (known && known.host === host) return known.docsBase;
  const docsBase = docsBaseUrl(request);
  docsBases.set(socket, { host, docsBase });
  return docsBase;
}

/** The contract's error examples link to their code's documentation: the mock points the link at its own `/docs`. */
function linkedToDocs(answer: Answer, docsBase: string): Answer {
  const error = answer.body.error as { code?: unknown; doc_url?: string } | undefined;
  if (error && typeof error.code === 'string' && error.code in errorCatalog) error.doc_url = errorDocUrl(docsBase, error.code as ErrorCode);
  return answer;
}

function send(response: ServerResponse, { status, body, xCache, headers = {} }: Answer): void {
  const text = jsonWithKeptValues(body);
  response.writeHead(status, {
    ...headers,
    ...envelopeHeaders(body, xCache),
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
  });
  response.end(text);
}

let stampedAt = Number.NaN;
let stamp = '';

/** `new Date().toISOString()`, written once per millisecond: under load, many requests end in the same one. */
function isoNow(): string {
  const now = Date.now();
  if (now !== stampedAt) {
    stampedAt = now;
    stamp = new Date(now).toISOString();
  }
  return stamp;
}

/** Builds the mock's HTTP server (not yet listening). */
export function createMockServer({ engine, log, corsOrigins = null }: MockServerOptions): Server {
  return createHttpServer(async (request, response) => {
    const started = performance.now();
    const url = requestTarget(request.url ?? '/');
    // Read now: the connection may be gone by the time an error is built (a body too large).
    const docsBase = docsBaseOf(request);
    let status: number;
    if (applyCors(corsOrigins, request, response, BASE_PATH, MOCK_CORS_REQUEST_HEADERS)) {
      status = 204;
    } else if ((request.method === 'GET' || request.method === 'HEAD') && (url.pathname === DOCS_PATH || url.pathname === `${DOCS_PATH}/`)) {
      status = await sendReferencePage(response);
    } else {
      let result: Answer;
      try {
        result = linkedToDocs(await answer(request, url, engine), docsBase);
      } catch (error) {
        const failure = error instanceof ErrorAnswer
          ? error
          : new ErrorAnswer('internal_error', 'The mock failed while answering.', { platform: 'unknown', endpoint: url.pathname, creditsRemaining: null });
        if (!(error instanceof ErrorAnswer)) log(`mock failure: ${(error as Error).stack ?? String(error)}`);
        const built = errorAnswer(failure.code, failure.message, failure.context, newRequestId(), docsBase);
        result = { status: built.status, body: built.body, xCache: 'BYPASS', headers: failure.headers };
      }
      send(response, result);
      status = result.status;
    }
    log(`${isoNow()} ${request.method} ${url.pathname} ${status} ${(performance.now() - started).toFixed(1)}ms`);
  });
}
