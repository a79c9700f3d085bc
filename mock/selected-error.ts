/**
 * The error the mock answers when a caller selects an error status (`Prefer: code=503`,
 * `__code=402`, `example=…`). Prism would answer the contract's shared example verbatim, which
 * names another operation ("No provider is configured for finance/history"); this builds the
 * answer from the catalogue of messages instead, for the operation called and its real figures.
 */
import type { ErrorCode } from '../generated/errors.ts';
import type { OperationRow } from '../generated/operations.ts';
import * as messages from '../lib/error-messages.ts';
import { DEFAULT_RATE_LIMIT_POLICY, rateLimitFields } from '../lib/rate-limit-fields.ts';
import { MAX_REQUEST_HEAD_BYTES } from '../lib/request-limits.ts';
import { operations } from '../generated/operations.ts';
import { declaredAnswers, declaredParameters, requiredBodyFields } from './declared-answers.ts';

/** The wait a selected 429 answers. */
const RETRY_AFTER_SECONDS = 12;
/** What an illustrative throttled upstream says about its reset. */
const UPSTREAM_RETRY_AFTER_SECONDS = 30;
const ILLUSTRATIVE_IDEMPOTENCY_KEY = 'order-4711';
const ILLUSTRATIVE_HOST = '127.0.0.1';
const DAY_MS = 24 * 60 * 60 * 1000;

export interface SelectedErrorRequest {
  operation: OperationRow;
  method: string;
  /** The path asked, with `/v1`. */
  pathname: string;
  headers: Record<string, string>;
  requestId: string;
  nowMs: number;
  /** The balance the mock reports when nothing says otherwise. */
  balance: number;
}

export interface SelectedError {
  code: ErrorCode;
  message: string;
  creditsRemaining: number | null;
  headers: Record<string, string>;
}

/** Whether an error code could be this operation's answer at all: the mock found the operation, and only an id can name nothing. */
function couldAnswer(code: ErrorCode, operation: OperationRow): boolean {
  if (code === 'endpoint_not_found') return false;
  if (code === 'resource_not_found') return operation.path.includes('{');
  return true;
}

/**
 * The code to answer: the example's when the caller named one, otherwise the first of the
 * status's codes that this operation could answer (a 404 of `web/scrape` is `upstream_not_found`,
 * not `endpoint_not_found`).
 */
export function selectedCode(operation: OperationRow, status: number, prismCode: ErrorCode, exampleNamed: boolean): ErrorCode {
  if (exampleNamed) return prismCode;
  const codes = (declaredAnswers(operation).get(status) ?? []).flatMap((example) => (example.code ? [example.code] : []));
  return codes.find((code) => couldAnswer(code, operation)) ?? prismCode;
}

/** The scopes of every platform but the operation's: a key that lacks exactly what the call needs. */
function otherScopes(operation: OperationRow): string[] {
  return [...new Set(operations.flatMap((row) => row.scopes))].filter((scope) => !operation.scopes.includes(scope));
}

function pathParameter(request: SelectedErrorRequest): { kind: string; id: string } {
  const template = request.operation.path.split('/');
  const asked = request.pathname.replace(/^\/v1/, '').split('/');
  const index = template.findIndex((part) => part.startsWith('{'));
  return { kind: template[index]!.slice(1, -1).replace(/_id$/, ''), id: decodeURIComponent(asked[index] ?? '') };
}

function urlParameter(operation: OperationRow): string {
  const query = operation.queryParameters.find((name) => name === 'url');
  return query ? `query.${query}` : 'body.url';
}

function timeoutMs(request: SelectedErrorRequest): number {
  return request.operation.queryParameters.includes('timeout') ? 30000 : 60000;
}

function message(code: ErrorCode, request: SelectedErrorRequest, balance: number): string {
  const { operation } = request;
  const yesterday = new Date(Math.floor(request.nowMs / DAY_MS) * DAY_MS - DAY_MS).toISOString().replace('.000Z', 'Z');
  switch (code) {
    case 'api_key_missing': return messages.apiKeyMissing();
    case 'api_key_invalid': return messages.apiKeyInvalid();
    case 'api_key_expired': return messages.apiKeyExpired(yesterday);
    case 'api_key_revoked': return messages.apiKeyRevoked(yesterday);
    case 'insufficient_credits': return messages.insufficientCredits(operation, balance);
    case 'scope_denied': return messages.scopeDenied(operation, otherScopes(operation), operation.scopes);
    case 'provider_policy_denied': return messages.providerPolicyDenied(operation);
    case 'endpoint_not_found': return messages.endpointNotFound(request.method, request.pathname);
    case 'resource_not_found': {
      const { kind, id } = pathParameter(request);
      return messages.resourceNotFound(kind, id);
    }
    case 'method_not_allowed': return messages.methodNotAllowed(request.pathname, request.method, [operation.method]);
    case 'idempotency_key_reused': return messages.idempotencyKeyReused(request.headers['idempotency-key'] || ILLUSTRATIVE_IDEMPOTENCY_KEY, request.method, request.pathname);
    case 'idempotency_request_in_progress': return messages.idempotencyRequestInProgress(request.headers['idempotency-key'] || ILLUSTRATIVE_IDEMPOTENCY_KEY);
    case 'invalid_parameters': return messages.invalidParameters([illustrativeProblem(operation)]);
    case 'invalid_json_body': return messages.invalidJsonBody('Unexpected end of JSON input');
    case 'unsupported_media_type': return messages.unsupportedMediaType(request.headers['content-type'] ?? '');
    case 'body_too_large': return messages.bodyTooLarge();
    case 'request_too_large': return messages.requestTooLarge(MAX_REQUEST_HEAD_BYTES);
    case 'malformed_request': return messages.malformedRequest('Invalid header value char', 'HPE_INVALID_HEADER_TOKEN');
    case 'url_not_allowed': return messages.urlNotAllowed(urlParameter(operation), ILLUSTRATIVE_HOST);
    case 'rate_limited': return messages.rateLimited(DEFAULT_RATE_LIMIT_POLICY, RETRY_AFTER_SECONDS);
    case 'internal_error': return messages.internalError(request.requestId);
    case 'upstream_rejected': return messages.upstreamAnswered(operation, '400 Bad Request');
    case 'upstream_not_found': return messages.upstreamAnswered(operation, '404 Not Found');
    case 'upstream_failed': return messages.upstreamAnswered(operation, '503 Service Unavailable');
    case 'upstream_timeout': return messages.upstreamTimeout(operation, timeoutMs(request));
    case 'provider_unavailable': return messages.providerUnavailable(operation);
    case 'upstream_rate_limited': return messages.upstreamRateLimited(`The upstream of ${messages.operationName(operation)}`, 429, UPSTREAM_RETRY_AFTER_SECONDS);
    case 'capability_unavailable':
      return messages.capabilityUnavailable(operation.queryParameters.includes('wait_for')
        ? 'wait_for needs a headless browser, and none is configured (CHROMIUM_PATH)'
        : `${messages.operationName(operation)} needs a capability this deployment lacks`);
    case 'service_unavailable': return messages.serviceUnavailable();
  }
}

/** A problem an invalid request to this operation could have: its first required parameter or body field missing. */
function illustrativeProblem(operation: OperationRow): string {
  const query = declaredParameters(operation).filter((parameter) => parameter.in === 'query');
  const required = query.find((parameter) => parameter.required);
  if (required) return `query.${required.name} is required`;
  const field = requiredBodyFields(operation)[0];
  if (field) return `body.${field} is required`;
  return query[0] ? `query.${query[0].name} is not one of the values its schema allows` : `${messages.operationName(operation)} takes no parameters`;
}

/** The error answer for a status the caller selected, with the code Prism's example had. */
export function selectedError(status: number, prismCode: ErrorCode, exampleNamed: boolean, request: SelectedErrorRequest): SelectedError {
  const code = selectedCode(request.operation, status, prismCode, exampleNamed);
  // A 401 knows no key, so no balance; a 402 has a balance below the cost, so its message is true.
  const creditsRemaining = status === 401 ? null : code === 'insufficient_credits' ? Math.max(0, request.operation.creditCost - 1) : request.balance;
  const headers: Record<string, string> = code === 'rate_limited'
    ? { 'Retry-After': String(RETRY_AFTER_SECONDS), ...rateLimitFields(DEFAULT_RATE_LIMIT_POLICY, 0, RETRY_AFTER_SECONDS) }
    : code === 'upstream_rate_limited' ? { 'Retry-After': String(UPSTREAM_RETRY_AFTER_SECONDS) } : {};
  return { code, message: message(code, request, creditsRemaining ?? 0), creditsRemaining, headers };
}
