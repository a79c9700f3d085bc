/**
 * What the contract declares for an operation: its parameters, its statuses and the named examples
 * of each. They depend on the contract alone, so each is read once per operation and kept (callers
 * only read them).
 */
import type { ErrorCode } from '../generated/errors.ts';
import type { OperationRow } from '../generated/operations.ts';
import { contractDocument, resolveRef } from '../lib/contract-document.ts';

type Json = Record<string, any>;

export interface DeclaredExample {
  name: string;
  /** The example's `error.code`, for an error example. */
  code?: ErrorCode;
}

/** The operation object of the bundle, `$ref`s left in place. */
export function operationObject(operation: OperationRow): Json {
  return (contractDocument.paths as Json)[operation.path][operation.method.toLowerCase()] as Json;
}

/** `read(operation)`, computed once per operation. */
function perOperation<T>(read: (operation: OperationRow) => T): (operation: OperationRow) => T {
  const kept = new Map<string, T>();
  return (operation) => {
    let value = kept.get(operation.operationId);
    if (value === undefined) {
      value = read(operation);
      kept.set(operation.operationId, value);
    }
    return value;
  };
}

/** Each declared status (in the contract's order) with its named examples, in order. */
export const declaredAnswers: (operation: OperationRow) => ReadonlyMap<number, readonly DeclaredExample[]> = perOperation((operation) => {
  const answers = new Map<number, DeclaredExample[]>();
  for (const [status, response] of Object.entries(operationObject(operation).responses as Json)) {
    const examples = (resolveRef<Json>(response).content?.['application/json']?.examples ?? {}) as Json;
    answers.set(Number(status), Object.entries(examples).map(([name, example]) => ({ name, code: resolveRef<Json>(example).value?.error?.code })));
  }
  return answers;
});

/** The operation's parameters as declared, resolved. */
export const declaredParameters: (operation: OperationRow) => readonly { name: string; in: string; required?: boolean; schema: Json }[] = perOperation(
  (operation) => ((operationObject(operation).parameters ?? []) as unknown[]).map((parameter) => resolveRef(parameter)),
);

/** The names of the body's required fields, in order; empty without a body. */
export const requiredBodyFields: (operation: OperationRow) => readonly string[] = perOperation((operation) => {
  const requestBody = operationObject(operation).requestBody;
  if (!requestBody) return [];
  const schema = resolveRef<Json>(resolveRef<Json>(requestBody).content['application/json'].schema);
  return (schema.required as string[] | undefined) ?? [];
});
