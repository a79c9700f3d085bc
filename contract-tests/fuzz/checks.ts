/**
 * The checks run on every answer, as Schemathesis runs its own: each returns what failed, in
 * words, or nothing. The contract's conformance (status, media type, body, headers and their
 * agreement with the body) is the contract suite's (suite/conformance.ts), sorted here by check.
 */
import type { OperationId } from '../../generated/operations.ts';
import { contractOperations, type ContractOperation } from '../contract.ts';
import { contractMismatches } from '../suite/conformance.ts';
import type { FuzzRequest } from './request.ts';
import type { SentAnswer } from './send.ts';

export const CHECK_NAMES = [
  'not_a_server_error', 'status_code_conformance', 'content_type_conformance', 'response_schema_conformance', 'response_headers_conformance',
  'header_body_agreement', 'errors_uncharged', 'credits_accounting', 'positive_data_acceptance', 'negative_data_rejection', 'ignored_auth',
  'use_after_free', 'ensure_resource_availability',
] as const;
export type CheckName = (typeof CHECK_NAMES)[number];

export interface CheckFailure {
  check: CheckName;
  message: string;
}

/** One request and its answer, with what the fuzzer knew when it sent it. */
export interface Exchange {
  request: FuzzRequest;
  /** Whether the fuzzer meant the request as valid (a mutation makes it invalid). */
  intent: 'valid' | 'invalid';
  answer: SentAnswer;
  /** The key's balance before the call, when the target keeps accounts and it is known. */
  balanceBefore: number | undefined;
  /** Whether the path id names a job or monitor the fuzzer created. */
  addressesCreated: boolean;
}

const byOperationId = new Map<string, ContractOperation>(contractOperations().map((operation) => [operation.operationId, operation]));

function declaredStatuses(operationId: OperationId): string[] {
  return Object.keys(byOperationId.get(operationId)!.object.responses as object);
}

/** Which check a conformance mismatch of suite/conformance.ts belongs to. */
export function conformanceCheck(mismatch: string): CheckName {
  if (mismatch.startsWith('content type is') || mismatch.startsWith('no application/json schema')) return 'content_type_conformance';
  if (/^status \d+ is not declared/.test(mismatch)) return 'status_code_conformance';
  if (mismatch.startsWith('body ')) return 'response_schema_conformance';
  if (/disagrees with the body/.test(mismatch)) return 'header_body_agreement';
  return 'response_headers_conformance';
}

function envelope(answer: SentAnswer): Record<string, unknown> {
  return answer.body && typeof answer.body === 'object' ? (answer.body as Record<string, unknown>) : {};
}

function remaining(answer: SentAnswer): number | undefined {
  const text = answer.headers.get('x-credits-remaining');
  return text !== null && /^\d+$/.test(text) ? Number(text) : undefined;
}

const conformance = ({ request, answer }: Exchange): CheckFailure[] =>
  contractMismatches(byOperationId.get(request.operationId)!, answer).map((message) => ({ check: conformanceCheck(message), message }));

/** A 500 is the service failing; any other 5xx must be one the operation declares. */
const notAServerError = ({ request, answer }: Exchange): CheckFailure[] => {
  if (answer.status < 500) return [];
  if (answer.status === 500) return [{ check: 'not_a_server_error', message: `500: ${answer.text.slice(0, 300)}` }];
  return declaredStatuses(request.operationId).includes(String(answer.status)) ? [] : [{ check: 'not_a_server_error', message: `${answer.status} is not declared for ${request.operationId}` }];
};

/** An error draws nothing: `X-Credits-Used: 0`, `credits_used: 0`, and the balance unchanged where the target keeps accounts. */
const errorsUncharged = ({ answer, balanceBefore }: Exchange): CheckFailure[] => {
  if (answer.status < 400) return [];
  const failures: CheckFailure[] = [];
  const used = answer.headers.get('x-credits-used');
  if (used !== null && used !== '0') failures.push({ check: 'errors_uncharged', message: `a ${answer.status} answer has X-Credits-Used: ${used}` });
  const bodyUsed = envelope(answer).credits_used;
  if (bodyUsed !== undefined && bodyUsed !== 0) failures.push({ check: 'errors_uncharged', message: `a ${answer.status} answer has credits_used ${String(bodyUsed)}` });
  const after = remaining(answer);
  if (balanceBefore !== undefined && after !== undefined && after !== balanceBefore) failures.push({ check: 'errors_uncharged', message: `a ${answer.status} answer moved the balance from ${balanceBefore} to ${after}` });
  return failures;
};

/** A success draws what it says it drew: the balance falls by `X-Credits-Used` (a replay draws nothing). */
const creditsAccounting = ({ answer, balanceBefore }: Exchange): CheckFailure[] => {
  if (answer.status >= 400 || balanceBefore === undefined || answer.headers.get('idempotent-replayed') === 'true') return [];
  const after = remaining(answer);
  const used = Number(answer.headers.get('x-credits-used') ?? 'NaN');
  if (after === undefined || Number.isNaN(used) || after === balanceBefore - used) return [];
  return [{ check: 'credits_accounting', message: `the balance went from ${balanceBefore} to ${after} on an answer that drew ${used}` }];
};

/** Statuses a valid request may get that do not depend on its validity. */
const INDEPENDENT_OF_INPUT = ['402', '429', '503'];

/** A valid request is served: 2xx, or a status that does not depend on it (404 for an id the fuzzer did not create). */
const positiveDataAcceptance = ({ request, intent, answer, addressesCreated }: Exchange): CheckFailure[] => {
  if (intent !== 'valid' || request.key !== 'valid' || (answer.status >= 200 && answer.status < 300)) return [];
  const status = String(answer.status);
  const declared = declaredStatuses(request.operationId);
  if (INDEPENDENT_OF_INPUT.includes(status) && declared.includes(status)) return [];
  if (status === '404' && Object.keys(request.pathParams).length > 0 && !addressesCreated) return [];
  return [{ check: 'positive_data_acceptance', message: `a valid request answered ${status}: ${answer.text.slice(0, 300)}` }];
};

/** A request made invalid is refused with a 4xx. */
const negativeDataRejection = ({ request, intent, answer }: Exchange): CheckFailure[] => {
  if (intent !== 'invalid' || request.key !== 'valid' || (answer.status >= 400 && answer.status < 500)) return [];
  return [{ check: 'negative_data_rejection', message: `an invalid request (${request.mutation}) answered ${answer.status}` }];
};

/** A path id `.` or `..` is a dot segment: a target that resolves it (RFC 3986) reaches no operation. */
function resolvedAway(request: FuzzRequest, answer: SentAnswer): boolean {
  const dotSegment = Object.values(request.pathParams).some((value) => value === '.' || value === '..');
  return dotSegment && answer.status === 404 && (envelope(answer).error as { code?: unknown } | undefined)?.code === 'endpoint_not_found';
}

/** A request without the key, or with a wrong one, answers 401 whatever else it carries (a path that reaches no operation answers 404 first). */
const ignoredAuth = ({ request, answer }: Exchange): CheckFailure[] => {
  if (request.key === 'valid' || answer.status === 401 || resolvedAway(request, answer)) return [];
  return [{ check: 'ignored_auth', message: `a request with a ${request.key} key answered ${answer.status}, not 401` }];
};

const ANSWER_CHECKS = [notAServerError, conformance, errorsUncharged, creditsAccounting, positiveDataAcceptance, negativeDataRejection, ignoredAuth];

/** Every check of one answer that failed; empty when all pass. */
export function checkExchange(exchange: Exchange): CheckFailure[] {
  return ANSWER_CHECKS.flatMap((check) => check(exchange));
}
