/**
 * Checks an answer against the contract: the contract suite's conformance check (status declared,
 * JSON, body and every declared header valid, headers agreeing with the body), then the envelope
 * rules no schema states: `success` is true exactly on 2xx, an error's `error.status` is the HTTP
 * status, and an error charges nothing. An undeclared status is reported alone.
 */
import { contractOperations, type ContractOperation } from '../../contract-tests/contract.ts';
import { contractMismatches } from '../../contract-tests/suite/conformance.ts';
import type { OperationRow } from '../../generated/operations.ts';
import type { Violation, ViolationKind } from './violations.ts';

const byOperationId = new Map(contractOperations().map((operation) => [operation.operationId, operation] as [string, ContractOperation]));

/** The kind of one of conformance.ts's mismatch lines, by how it begins. */
function kindOf(mismatch: string): ViolationKind {
  if (mismatch.startsWith('status ')) return 'response-status';
  if (mismatch.startsWith('content type ') || mismatch.startsWith('no application/json schema')) return 'response-content-type';
  if (mismatch.startsWith('body ')) return 'response-body';
  if (/^header \S+ ".*" disagrees with the body/.test(mismatch)) return 'header-body-agreement';
  return 'response-header';
}

function envelopeRules(status: number, body: Record<string, unknown>): string[] {
  const broken: string[] = [];
  const success = status >= 200 && status < 300;
  if (body.success !== success) broken.push(`success is ${String(body.success)} on status ${status}`);
  const error = body.error as { status?: unknown } | undefined;
  if (!success && error && error.status !== status) broken.push(`error.status ${String(error.status)} is not the HTTP status ${status}`);
  if (!success && body.credits_used !== 0) broken.push(`an error charged credits_used ${String(body.credits_used)}, not 0`);
  return broken;
}

/** Every way the answer departs from the contract; empty when it conforms. */
export function checkResponse(operation: OperationRow | null, answer: { status: number; headers: Headers; body: Buffer }): Violation[] {
  const contentType = answer.headers.get('content-type') ?? '';
  let body: unknown;
  try {
    body = JSON.parse(answer.body.toString('utf8'));
  } catch {
    return [{ kind: 'response-body', message: `body is not JSON (${answer.body.length} bytes of ${contentType || 'no content type'})` }];
  }
  const observed = { status: answer.status, headers: answer.headers, contentType, body };
  const mismatches = contractMismatches(operation ? byOperationId.get(operation.operationId)! : null, observed).map((message) => ({ kind: kindOf(message), message }));
  // An undeclared status says it all: no schema or envelope rule applies to it.
  if (mismatches.some(({ kind }) => kind === 'response-status')) return mismatches;
  const envelope = body && typeof body === 'object' && !Array.isArray(body) ? envelopeRules(answer.status, body as Record<string, unknown>) : [];
  return [...mismatches, ...envelope.map((message) => ({ kind: 'envelope' as const, message }))];
}
