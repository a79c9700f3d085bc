/**
 * JSON Schemas (draft 2020-12) the model's answer is checked against: the caller's `schema` of
 * `web/extract`, and this adapter's own answer shapes (the judge's, the agent's).
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { extractSchemaNotJson, extractSchemaNotJsonSchema, extractSchemaRootNotObject, modelAnswerMismatch } from '../../../lib/error-messages.ts';
import { ProviderError } from '../types.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

/**
 * A fresh Ajv per schema: a caller's schema (and its `$id`) is compiled once and forgotten with the call,
 * never cached. It does not check the schema against the draft 2020-12 meta-schema, which a fresh Ajv
 * would compile anew each time (~0.2 s): a caller's schema is checked first by the one `metaChecker`.
 */
function newAjv(): Ajv2020 {
  return addFormats(new Ajv2020({ strict: false, allErrors: true, logger: false, validateSchema: false }));
}

let metaChecker: Ajv2020 | undefined;

/** Throws Ajv's own "schema is invalid: …" when `schema` breaks the draft 2020-12 meta-schema (compiled at the first use, once). */
function checkAgainstMetaSchema(schema: object): void {
  metaChecker ??= addFormats(new Ajv2020({ strict: false, allErrors: true, logger: false }));
  metaChecker.validateSchema(schema, true);
}

export interface AnswerSchema {
  schema: Record<string, unknown>;
  validate: ValidateFunction;
}

/** Compiles a schema this adapter defines (not checked against the meta-schema: a mistake in it is a programming error, which its tests find). */
export function answerSchema(schema: Record<string, unknown>): AnswerSchema {
  return { schema, validate: newAjv().compile(schema) };
}

/** The caller's `schema` parameter: JSON, a JSON Schema (draft 2020-12), its root `"type": "object"`; 422 `invalid_parameters` otherwise. */
export function callerSchema(text: string): AnswerSchema {
  let schema: unknown;
  try {
    schema = JSON.parse(text);
  } catch {
    throw new ProviderError('invalid_parameters', extractSchemaNotJson());
  }
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema) || (schema as { type?: unknown }).type !== 'object') {
    throw new ProviderError('invalid_parameters', extractSchemaRootNotObject());
  }
  try {
    checkAgainstMetaSchema(schema);
    return { schema: schema as Record<string, unknown>, validate: newAjv().compile(schema) };
  } catch (error) {
    throw new ProviderError('invalid_parameters', extractSchemaNotJsonSchema((error as Error).message));
  }
}

function describe(errors: ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).map((error) => {
    const extra = error.keyword === 'additionalProperties' ? ` (${String(error.params.additionalProperty)})` : '';
    return `${error.instancePath || '(root)'} ${error.message ?? error.keyword}${extra}`;
  });
}

/** `answer`, when it matches; a 502 `upstream_failed` naming the mismatches otherwise. */
export function checkedAnswer<T>(answer: Record<string, unknown>, against: AnswerSchema): T {
  if (!against.validate(answer)) throw new ProviderError('upstream_failed', modelAnswerMismatch(describe(against.validate.errors)));
  return answer as T;
}
