/**
 * Every answer body of an operation against the contract's schema for its status (the server's own
 * response validation, in place of express-openapi-validator's: see server/README.md for why).
 * As before, a 5xx answer is not checked (it is the answer to a failure) and neither is one that
 * addresses no operation (404 for an unknown path, 405).
 *
 * A 200 whose `data` comes from the response cache is checked without its `data`: that data was
 * checked, as the whole body, before it was stored (pipeline.ts stores only what passed), and the
 * cache key names the contract's version. Its envelope (platform, endpoint, credits, request id,
 * `cached`, and that `data` is an object) is checked as always.
 */
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { contractDocument, resolveRef } from '../../lib/contract-document.ts';
import type { OperationRow } from '../../generated/operations.ts';
import { contractValidator } from './contract-ajv.ts';

type Json = Record<string, any>;

/** One way an answer departs from the contract, as it is logged. */
export interface AnswerProblem {
  path: string;
  message: string;
}

/** Per operation, status and whether `data` is left out: the validator, or null when the contract declares no JSON body. */
const validators = new Map<string, ValidateFunction | null>();

function pointerOf(...parts: string[]): string {
  return parts.map((part) => part.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
}

function responsesOf(operation: OperationRow): Json {
  return (contractDocument.paths as Json)[operation.path][operation.method.toLowerCase()].responses as Json;
}

/** The response the operation declares for `status` (`404`, else `4XX`, else `default`), as OpenAPI picks it. */
function declaredStatus(operation: OperationRow, status: number): string | undefined {
  const responses = responsesOf(operation);
  return [String(status), `${String(status)[0]}XX`, 'default'].find((candidate) => candidate in responses);
}

/** The pointer of the JSON body schema this operation declares for `status`, or undefined when none is declared. */
function bodySchemaPointer(operation: OperationRow, status: number): string | undefined {
  const responses = responsesOf(operation);
  const declared = declaredStatus(operation, status);
  if (!declared) return undefined;
  let pointer = `#/${pointerOf('paths', operation.path, operation.method.toLowerCase(), 'responses', declared)}`;
  const response = responses[declared] as Json;
  if (typeof response.$ref === 'string') pointer = response.$ref;
  if (!resolveRef<Json>(response).content?.['application/json']?.schema) return undefined;
  return `${pointer}/content/application~1json/schema`;
}

/**
 * The body schema without `data`: the contract writes every 200 body as
 * `allOf: [SuccessEnvelope, { properties: { platform, endpoint, data } }]`, so that is the same
 * `allOf` with the narrowing of `data` left out (SuccessEnvelope still requires an object). Null
 * for a schema of another shape, which is then checked whole.
 */
function envelopeSchema(schemaPointer: string): Json | null {
  const schema = resolvePointer(schemaPointer);
  if (!Array.isArray(schema?.allOf)) return null;
  const parts = (schema.allOf as Json[]).map((part, index) => {
    const partPointer = `${schemaPointer}/allOf/${index}`;
    if (!part.properties?.data) return { $ref: `contract${partPointer}` };
    const { properties, ...rest } = part;
    const kept = Object.keys(properties as Json).filter((name) => name !== 'data');
    if (Object.keys(rest).some((keyword) => keyword !== 'type' && keyword !== 'description')) return undefined;
    return { ...rest, properties: Object.fromEntries(kept.map((name) => [name, { $ref: `contract${partPointer}/properties/${pointerOf(name)}` }])) };
  });
  const narrowsData = (schema.allOf as Json[]).some((part) => part.properties?.data);
  return narrowsData && parts.every((part) => part !== undefined) ? { allOf: parts } : null;
}

/** The pointer of the schema a pointer finally names, following `$ref`s. */
function refTarget(pointer: string): string {
  let current = pointer;
  for (;;) {
    const node = resolvePointer(current);
    if (typeof node?.$ref !== 'string') return current;
    current = node.$ref as string;
  }
}

function resolvePointer(pointer: string): Json | undefined {
  return pointer.slice(2).split('/')
    .reduce<any>((parent, part) => parent?.[part.replace(/~1/g, '/').replace(/~0/g, '~')], contractDocument);
}

function validatorFor(operation: OperationRow, status: number, withoutData: boolean): ValidateFunction | null {
  const key = `${operation.operationId} ${status} ${withoutData}`;
  let validate = validators.get(key);
  if (validate === undefined) {
    const pointer = bodySchemaPointer(operation, status);
    const envelope = pointer && withoutData ? envelopeSchema(refTarget(pointer)) : null;
    validate = pointer === undefined ? null : contractValidator(key, () => envelope ?? { $ref: `contract${pointer}` });
    validators.set(key, validate);
  }
  return validate;
}

function problemOf(error: ErrorObject): AnswerProblem {
  return { path: `/response${error.instancePath}`, message: error.message ?? 'is not valid' };
}

/**
 * Every way `body` departs from the contract's schema for this operation and status; empty when it
 * conforms or is not checked. `dataFromCache`: `data` was checked when it was stored.
 */
export function answerProblems(operation: OperationRow | undefined, status: number, body: unknown, dataFromCache = false): AnswerProblem[] {
  if (!operation || status >= 500) return [];
  if (!declaredStatus(operation, status)) {
    return [{ path: '/response', message: `no schema defined for status code '${status}' in the openapi spec` }];
  }
  const validate = validatorFor(operation, status, dataFromCache);
  if (!validate || validate(body)) return [];
  return (validate.errors ?? []).map(problemOf);
}
