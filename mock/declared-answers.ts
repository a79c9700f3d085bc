/** What the contract declares for an operation: its parameters, its statuses and the named examples of each. */
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

/** Each declared status (in the contract's order) with its named examples, in order. */
export function declaredAnswers(operation: OperationRow): Map<number, DeclaredExample[]> {
  const answers = new Map<number, DeclaredExample[]>();
  for (const [status, response] of Object.entries(operationObject(operation).responses as Json)) {
    const examples = (resolveRef<Json>(response).content?.['application/json']?.examples ?? {}) as Json;
    answers.set(Number(status), Object.entries(examples).map(([name, example]) => ({ name, code: resolveRef<Json>(example).value?.error?.code })));
  }
  return answers;
}

/** The operation's parameters as declared, resolved. */
export function declaredParameters(operation: OperationRow): { name: string; in: string; required?: boolean; schema: Json }[] {
  return ((operationObject(operation).parameters ?? []) as unknown[]).map((parameter) => resolveRef(parameter));
}

/** The names of the body's required fields, in order; empty without a body. */
export function requiredBodyFields(operation: OperationRow): string[] {
  const requestBody = operationObject(operation).requestBody;
  if (!requestBody) return [];
  const schema = resolveRef<Json>(resolveRef<Json>(requestBody).content['application/json'].schema);
  return (schema.required as string[] | undefined) ?? [];
}
