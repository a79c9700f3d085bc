/**
 * The one catalogue of error messages, shared by the server (where it refuses a call) and the mock
 * (where it answers an error status selected with `Prefer`). Each function takes the facts the
 * message states, so a message always names the operation called and its real figures.
 */
import type { OperationRow } from '../generated/operations.ts';

/** How a message names an operation: its path below `/v1` without the leading slash (`web/scrape`). */
export function operationName(operation: OperationRow): string {
  return operation.path.slice(1);
}

function credits(amount: number): string {
  return `${amount} credit${amount === 1 ? '' : 's'}`;
}

/** `Invalid parameters: a; b.` (each problem once, in order). */
export function invalidParameters(problems: readonly string[]): string {
  return `Invalid parameters: ${[...new Set(problems)].join('; ')}.`;
}

/** A path whose percent-encoding is not UTF-8 (`%FF`, a lone `%`): no path parameter can be read from it. */
export function malformedPathEncoding(path: string): string {
  return `the path ${path} is not well-formed percent-encoded UTF-8`;
}

export function apiKeyMissing(): string {
  return 'Missing API key: send it in the x-api-key header.';
}

export function apiKeyInvalid(): string {
  return 'Invalid API key: this key was not issued by this service.';
}

export function apiKeyRevoked(revokedAt: string): string {
  return `API key was revoked at ${revokedAt}.`;
}

export function apiKeyExpired(expiredAt: string): string {
  return `API key expired at ${expiredAt}.`;
}

export function scopeDenied(operation: OperationRow, keyScopes: readonly string[], missing: readonly string[]): string {
  return `This key has the scopes ${keyScopes.join(', ') || '(none)'}; ${operationName(operation)} needs the scope ${missing.join(', ')}.`;
}

export function insufficientCredits(operation: OperationRow, balance: number): string {
  return `Insufficient credits: ${operationName(operation)} costs ${credits(operation.creditCost)}, the balance is ${balance}.`;
}

export function providerUnavailable(operation: OperationRow): string {
  return `No provider is configured for ${operationName(operation)}; no credits were used.`;
}

export function rateLimited(policy: { requests: number; windowSeconds: number }, retryAfterSeconds: number): string {
  return `Rate limit reached: ${policy.requests} requests per ${policy.windowSeconds} seconds for this key. Retry in ${retryAfterSeconds} seconds.`;
}

export function idempotencyKeyReused(idempotencyKey: string, method: string, path: string): string {
  return `Idempotency-Key ${idempotencyKey} was used with a different request (${method} ${path} with other parameters or body).`;
}

export function idempotencyRequestInProgress(idempotencyKey: string): string {
  return `A request with Idempotency-Key ${idempotencyKey} is still in progress; retry when it has finished.`;
}

export function endpointNotFound(method: string, path: string): string {
  return path === '/v1' || path.startsWith('/v1/') ? `No operation at ${method} ${path}.` : `No operation at ${method} ${path}: every path starts with /v1.`;
}

export function methodNotAllowed(path: string, method: string, allow: readonly string[]): string {
  return `${path} does not accept ${method}; it accepts ${allow.join(', ')}.`;
}

/** `kind` is what the id names: `job`, `monitor`. */
export function resourceNotFound(kind: string, id: string): string {
  return `No ${kind} ${id} for this API key.`;
}

/** A call that sent no JSON body (or only whitespace) where its operation requires one. */
export function missingBody(operationId: string, requiredFields: readonly string[], optionalFields: readonly string[]): string {
  return `a JSON body is required: ${operationId} takes an object with ${[...requiredFields.map((name) => `${name} (required)`), ...optionalFields].join(', ')}`;
}

/** A request line and headers over `limitBytes`, the largest any request within the contract's limits needs. */
export function requestTooLarge(limitBytes: number): string {
  return `The request line and headers are over ${limitBytes} bytes, more than any request within the contract's limits needs (every parameter at its maxLength, every character percent-encoded at its largest): shorten the query or the headers.`;
}

/** What Node's HTTP parser refused: its reason and code (`Invalid header token`, `HPE_INVALID_HEADER_TOKEN`). */
export function malformedRequest(reason: string, parserCode: string): string {
  return `The request is not well-formed HTTP/1.1: ${reason.replace(/\.$/, '')} (${parserCode}).`;
}

export function requestTimedOut(): string {
  return 'The request did not arrive in full in time.';
}

export function bodyTooLarge(): string {
  return 'The request body is over 1 MiB.';
}

/** A body its `Content-Encoding` (gzip, deflate, br, zstd) does not decode. */
export function undecodableBody(encoding: string, detail: string): string {
  return `The request body is not what its Content-Encoding (${encoding}) says: ${detail.replace(/\.$/, '')}.`;
}

/** A body in a content encoding or a charset the service does not read (the parser's words: \`unsupported charset "LATIN1"\`). */
export function unsupportedBodyEncoding(detail: string): string {
  return `The request body's encoding is not supported: ${detail.replace(/\.$/, '')}.`;
}

export function invalidJsonBody(detail: string): string {
  return `The request body is not well-formed JSON: ${detail.replace(/\.$/, '')}.`;
}

/** A body labelled with another media type than `application/json` (or none). */
export function unsupportedMediaType(contentType: string): string {
  return `The request body must be application/json, not ${contentType || 'unlabelled'}.`;
}

export function internalError(requestId: string): string {
  return `The request could not be processed. Report request id ${requestId}.`;
}

export function serviceUnavailable(): string {
  return 'The service is shutting down; retry in a moment.';
}

/** `capability` says what is missing, e.g. `wait_for needs a headless browser, and none is configured (CHROMIUM_PATH)`. */
export function capabilityUnavailable(capability: string): string {
  return `${capability}; no credits were used.`;
}

/** `parameter` is where the URL was given (`query.url`, `body.webhook_url`). */
export function urlNotAllowed(parameter: string, host: string): string {
  return `${parameter} targets a non-public address (${host}): only public addresses may be fetched.`;
}

export function providerPolicyDenied(operation: OperationRow): string {
  return `The provider of ${operationName(operation)} refuses automated access to this site.`;
}

/** The upstream's own answer, for `upstream_rejected` (4xx), `upstream_not_found` (404, 410) and `upstream_failed` (5xx). */
export function upstreamAnswered(operation: OperationRow, status: string): string {
  return `The upstream of ${operationName(operation)} answered ${status}.`;
}

export function upstreamTimeout(operation: OperationRow, timeoutMs: number): string {
  return `The upstream of ${operationName(operation)} did not answer within the timeout of ${timeoutMs} ms.`;
}

/**
 * Messages for an operator-configured upstream (`server/upstream/`), each naming the provider
 * (`SearXNG`, `Brave Search`) and never its address or credential.
 */
export function upstreamRejectedRequest(provider: string, status: number): string {
  return `${provider} rejected the request (it answered ${status}).`;
}

export function upstreamSaysNotFound(provider: string, status: number | null): string {
  return status === null ? `${provider} found nothing by that name.` : `${provider} answered ${status}: not found.`;
}

/** `retryAfterSeconds` only when the upstream said when its limit resets. */
export function upstreamRateLimited(provider: string, status: number, retryAfterSeconds: number | undefined): string {
  const when = retryAfterSeconds === undefined ? 'retry later' : `retry in ${retryAfterSeconds} second${retryAfterSeconds === 1 ? '' : 's'}`;
  return `${provider} throttles this service (it answered ${status}); ${when}. No credits were used.`;
}

export function upstreamCredentialRefused(provider: string, status: number): string {
  return `${provider} refuses this service's credential (it answered ${status}); no provider is available until the operator fixes it. No credits were used.`;
}

export function upstreamUnreachable(provider: string): string {
  return `${provider} cannot be reached; no provider is available until the operator fixes it. No credits were used.`;
}

/** `what` is what was wrong with the answer: `500`, `HTML instead of JSON`, `a body that is not JSON`. */
export function upstreamFailedAnswer(provider: string, what: string): string {
  return `${provider} answered ${what}.`;
}

export function upstreamTooLarge(provider: string, maxBytes: number): string {
  return `${provider} answered more than ${maxBytes} bytes.`;
}

export function upstreamTookTooLong(provider: string, timeoutMs: number): string {
  return `${provider} did not answer within ${timeoutMs} ms.`;
}

/** A `socialnet/events` URL on a host the meetup adapter does not serve; 422 `invalid_parameters`, before any upstream call. */
export function meetupUrlNotServed(host: string): string {
  return invalidParameters([`query.url: socialnet/events serves meetup.com group URLs; ${host} is not one`]);
}

/** A meetup.com URL that names no group (the home page, `/find/`, an event's page); 422 `invalid_parameters`. */
export function meetupNotAGroupUrl(url: string): string {
  return invalidParameters([`query.url: ${url} is not a Meetup group URL (https://www.meetup.com/<group>/, or its /events/ page)`]);
}

/** `web/extract` given both or neither of `schema` and `prompt`; 422 `invalid_parameters`, as the next three. */
export function extractNeedsSchemaOrPrompt(): string {
  return 'Give exactly one of `schema` and `prompt`.';
}

export function extractSchemaNotJson(): string {
  return '`schema` is not valid JSON.';
}

export function extractSchemaRootNotObject(): string {
  return 'The root of `schema` must be `"type": "object"`.';
}

/** `detail` is the schema compiler's reason (`data/properties/a/type must be equal to one of the allowed values`). */
export function extractSchemaNotJsonSchema(detail: string): string {
  return `\`schema\` is not a JSON Schema (draft 2020-12): ${detail.replace(/\.$/, '')}.`;
}

/** A language model (the `openai` adapter's upstream) that refused to answer; 502 `upstream_failed`, as every `model…` message. */
export function modelRefused(refusal: string): string {
  return `The language model refused to answer: ${quoteBounded(refusal)}.`;
}

export function modelAnswerTruncated(): string {
  return 'The language model\'s answer was cut off at its output limit (finish_reason "length") before the JSON was complete.';
}

export function modelAnswerFiltered(): string {
  return 'The language model\'s answer was withheld by its content filter (finish_reason "content_filter").';
}

export function modelAnswerEmpty(): string {
  return 'The language model answered with no content.';
}

export function modelAnswerNotJson(detail: string): string {
  return `The language model's answer is not JSON: ${detail.replace(/\.$/, '')}.`;
}

/** `kind` names what came instead: `an array`, `a string`, `null`. */
export function modelAnswerNotObject(kind: string): string {
  return `The language model's answer is ${kind}, not a JSON object.`;
}

/** The first five problems Ajv found (`/plans/0/price_usd must be number,null`), and how many more. */
export function modelAnswerMismatch(problems: readonly string[]): string {
  const more = problems.length > 5 ? `; and ${problems.length - 5} more` : '';
  return `The language model's answer does not match the schema: ${problems.slice(0, 5).join('; ')}${more}.`;
}

/** A 2xx answer of the model server that lacks `choices[0].message`. */
export function modelAnswerNotCompletion(detail: string): string {
  return `The language model server's answer is not a chat completion: ${detail}.`;
}

/** The model server answered 404 to the configured model: the operator's configuration, logged for them; 503 `provider_unavailable`. */
export function modelNotServed(): string {
  return 'The language model server does not serve the configured model (it answered 404); no provider is available until the operator fixes it. No credits were used.';
}

function quoteBounded(text: string, limit = 300): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return JSON.stringify(oneLine.length > limit ? `${oneLine.slice(0, limit)}…` : oneLine);
}

/** A monitor check whose provider is gone (the configuration changed since the monitor was made): `needs` says what it needs, e.g. `Monitors in mode search need a search provider`. */
export function monitorProviderMissing(needs: string): string {
  return `${needs}, and none is configured.`;
}

/** A search provider's answer to a monitor check that has no list of results. */
export function monitorSearchUnreadable(provider: string): string {
  return `The ${provider} provider answered the monitor's search without a list of results.`;
}

/** A changed check whose judge failed (`judge_enabled`): the check stays `changed`, its `error` says why it has no `judgement`. */
export function monitorJudgeFailed(detail: string): string {
  return `The judge gave no verdict on this change: ${detail}`;
}

/** An agent job whose start page could not be read: nothing to answer from (the job fails, refunded). */
export function agentStartPageUnreadable(url: string, cause: string): string {
  return `The start page ${url} could not be read, so the agent had nothing to answer from: ${cause}`;
}

/** An agent that asked to open a page once its page budget was spent, instead of answering. */
export function agentOverBudget(budget: number, url: string): string {
  return `The agent asked to open ${url} after reading its ${budget} pages, the budget of its model, instead of answering.`;
}

/** An agent that failed with an error that is not an upstream's (a bug): its details stay in the server. */
export function agentFailedUnexpectedly(): string {
  return 'The agent failed unexpectedly, so the run has no answer; its credits are refunded.';
}
