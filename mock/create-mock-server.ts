/**
 * The mock's HTTP server: the contract's routes at `/v1`, answered by Prism, with every answer in
 * the contract's envelope and headers. Reads top to bottom: CORS, route, key, selection, body,
 * Prism, then the envelope's headers.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { OperationRow } from '../generated/operations.ts';
import type { ErrorCode } from '../generated/errors.ts';
import { matchRoute } from '../lib/contract-routes.ts';
import { applyCors, CORS_REQUEST_HEADERS, type CorsOrigins } from '../lib/cors.ts';
import { createHttpServer } from '../lib/http-server.ts';
import { envelopeHeaders, errorAnswer, type AnswerContext, type EnvelopeBody, type XCache } from '../lib/envelope.ts';
import { missingBodyMessage } from '../lib/request-body.ts';
import { newRequestId } from '../lib/request-id.ts';
import type { PrismEngine } from './prism-engine.ts';
import { readPreferences, takeSelectionQuery } from './preferences.ts';
import { readBody } from './read-body.ts';
import { invalidParametersMessage, requestProblems } from './validation-message.ts';

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
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

function queryRecord(query: URLSearchParams): Record<string, string | string[]> {
  const record: Record<string, string | string[]> = {};
  for (const name of new Set(query.keys())) {
    const values = query.getAll(name);
    record[name] = values.length === 1 ? values[0]! : values;
  }
  return record;
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

async function parseJsonBody(request: IncomingMessage, context: AnswerContext): Promise<unknown> {
  const body = await readBody(request);
  if (!body.ok) throw new ErrorAnswer('body_too_large', 'The request body is over 1 MiB.', context);
  if (body.text.trim() === '') return undefined;
  const contentType = request.headers['content-type'] ?? '';
  if (!/^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(contentType)) {
    throw new ErrorAnswer('unsupported_media_type', `The request body must be application/json, not ${contentType || 'unlabelled'}.`, context);
  }
  try {
    return JSON.parse(body.text);
  } catch (error) {
    throw new ErrorAnswer('invalid_json_body', `The request body is not well-formed JSON: ${(error as Error).message}.`, context);
  }
}

async function answerOperation(request: IncomingMessage, url: URL, operation: OperationRow, engine: PrismEngine): Promise<Answer> {
  const context: AnswerContext = { platform: operation.platform, endpoint: operation.path, creditsRemaining: null };
  const headers = flatHeaders(request);
  if (!headers['x-api-key']) {
    throw new ErrorAnswer('api_key_missing', 'Missing API key: send it in the x-api-key header.', context);
  }
  context.creditsRemaining = MOCK_BALANCE;

  const query = new URLSearchParams(url.search);
  const selection = readPreferences(headers.prefer, takeSelectionQuery(query));
  if (!selection.ok) throw new ErrorAnswer('invalid_parameters', invalidParametersMessage([selection.problem]), context);
  const unknownParameters = [...new Set(query.keys())]
    .filter((name) => !operation.queryParameters.includes(name))
    .map((name) => `query.${name} is not a parameter of ${operation.operationId}`);

  const body = operation.requestBody === 'none' ? (request.resume(), undefined) : await parseJsonBody(request, context);
  if (body === undefined && operation.requestBody === 'required') throw new ErrorAnswer('invalid_parameters', missingBodyMessage(operation), context);
  const result = await engine.respond(
    { method: operation.method, path: url.pathname.slice(BASE_PATH.length), query: queryRecord(query), headers, body },
    selection.preferences,
  );
  if (result.kind === 'selection-problem') {
    if (result.status >= 500) throw new ErrorAnswer('internal_error', `The mock could not answer: ${result.detail}`, context);
    throw new ErrorAnswer('invalid_parameters', invalidParametersMessage([`Prefer cannot be met: ${result.detail}`]), context);
  }
  const problems = [...unknownParameters, ...requestProblems(result.diagnostics)];
  if (problems.length > 0) throw new ErrorAnswer('invalid_parameters', invalidParametersMessage(problems), context);
  if (!isEnvelope(result.body)) throw new ErrorAnswer('internal_error', 'The mock produced an answer outside the envelope.', context);

  const envelope = structuredClone(result.body);
  const passedHeaders = Object.fromEntries(
    Object.entries(result.headers).filter(([name]) => !/^(idempotent-replayed|content-type|x-request-id|x-credits-used|x-credits-remaining|x-cache)$/i.test(name)),
  );
  if (envelope.success) {
    // The contract fixes these figures; examples and dynamic data must not contradict it.
    envelope.credits_used = operation.creditCost;
    const consulted = cacheConsulted(operation, query, headers);
    if (!consulted) envelope.cached = false;
    return { status: result.status, body: envelope, xCache: consulted ? (envelope.cached ? 'HIT' : 'MISS') : 'BYPASS', headers: passedHeaders };
  }
  envelope.platform = operation.platform;
  envelope.endpoint = operation.path;
  return { status: result.status, body: envelope, xCache: 'BYPASS', headers: passedHeaders };
}

async function answer(request: IncomingMessage, url: URL, engine: PrismEngine): Promise<Answer> {
  const creditsRemaining = request.headers['x-api-key'] ? MOCK_BALANCE : null;
  const unknownPath: AnswerContext = { platform: 'unknown', endpoint: url.pathname.replace(/^\/v1(?=\/)/, ''), creditsRemaining };
  const method = request.method ?? 'GET';
  if (url.pathname !== BASE_PATH && !url.pathname.startsWith(`${BASE_PATH}/`)) {
    throw new ErrorAnswer('endpoint_not_found', `No operation at ${method} ${url.pathname}: every path starts with /v1.`, unknownPath);
  }
  const route = matchRoute(method, url.pathname.slice(BASE_PATH.length));
  if (route.kind === 'unknown-path') throw new ErrorAnswer('endpoint_not_found', `No operation at ${method} ${url.pathname}.`, unknownPath);
  if (route.kind === 'wrong-method') {
    const context = { ...unknownPath, platform: url.pathname.split('/')[2] ?? 'unknown' };
    throw new ErrorAnswer('method_not_allowed', `${url.pathname} does not accept ${method}; it accepts ${route.allow.join(', ')}.`, context, { Allow: route.allow.join(', ') });
  }
  return answerOperation(request, url, route.operation, engine);
}

function send(response: ServerResponse, { status, body, xCache, headers = {} }: Answer): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    ...headers,
    ...envelopeHeaders(body, xCache),
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
  });
  response.end(text);
}

/** Builds the mock's HTTP server (not yet listening). */
export function createMockServer({ engine, log, corsOrigins = null }: MockServerOptions): Server {
  return createHttpServer(async (request, response) => {
    const started = performance.now();
    const url = new URL(request.url ?? '/', 'http://mock.local');
    let status: number;
    if (applyCors(corsOrigins, request, response, BASE_PATH, MOCK_CORS_REQUEST_HEADERS)) {
      status = 204;
    } else {
      let result: Answer;
      try {
        result = await answer(request, url, engine);
      } catch (error) {
        const failure = error instanceof ErrorAnswer
          ? error
          : new ErrorAnswer('internal_error', 'The mock failed while answering.', { platform: 'unknown', endpoint: url.pathname, creditsRemaining: null });
        if (!(error instanceof ErrorAnswer)) log(`mock failure: ${(error as Error).stack ?? String(error)}`);
        const built = errorAnswer(failure.code, failure.message, failure.context, newRequestId());
        result = { status: built.status, body: built.body, xCache: 'BYPASS', headers: failure.headers };
      }
      send(response, result);
      status = result.status;
    }
    log(`${new Date().toISOString()} ${request.method} ${url.pathname} ${status} ${(performance.now() - started).toFixed(1)}ms`);
  });
}
