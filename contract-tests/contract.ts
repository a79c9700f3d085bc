/**
 * The contract as the tests see it: the bundle `generated/openapi.json`, its operations, and an Ajv
 * validator (JSON Schema 2020-12) that checks answers against it, independent of the server's validator.
 */
import { withContractFormats } from '../lib/contract-formats.ts';
import { readFileSync } from 'node:fs';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { bundlePath } from '../scripts/paths.ts';


export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

type Json = Record<string, unknown>;

export interface ContractOperation {
  operationId: string;
  method: string;
  path: string;
  /** The operation object as bundled, `$ref`s left in place. */
  object: Json;
}

/** The bundled contract, parsed once. */
export const contract: Json = JSON.parse(readFileSync(bundlePath, 'utf8'));

const BUNDLE_ID = 'https://contract.local/openapi.json';

const ajv = withContractFormats(new Ajv2020({ strict: false, allErrors: true, validateFormats: true }));
ajv.addSchema(contract, BUNDLE_ID);

/** Follows a local `$ref` (`#/components/...`) until a non-reference object is reached. */
export function resolve<T = Json>(node: unknown): T {
  let current = node as Json;
  for (let depth = 0; current && typeof current.$ref === 'string'; depth++) {
    if (depth > 20) throw new Error(`$ref loop at ${String(current.$ref)}`);
    current = pointer(current.$ref as string);
  }
  return current as T;
}

function pointer(ref: string): Json {
  if (!ref.startsWith('#/')) throw new Error(`only local $refs are expected in the bundle, got ${ref}`);
  return ref
    .slice(2)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>((node, key) => (node as Json)[key], contract) as Json;
}

/** Every operation of `paths` (webhooks excluded), in the contract's order. */
export function contractOperations(): ContractOperation[] {
  const operations: ContractOperation[] = [];
  for (const [path, item] of Object.entries(contract.paths as Record<string, Json>)) {
    for (const method of HTTP_METHODS) {
      const object = item[method] as Json | undefined;
      if (object) operations.push({ operationId: object.operationId as string, method, path, object });
    }
  }
  return operations;
}

const validators = new Map<string, ValidateFunction>();

/** A validator for the schema at a JSON pointer (already escaped) of the bundle, compiled once. */
export function validatorAt(jsonPointer: string): ValidateFunction {
  let validate = validators.get(jsonPointer);
  if (!validate) {
    const ref = `${BUNDLE_ID}#${jsonPointer.split('/').map(encodeURIComponent).join('/')}`;
    validate = ajv.compile({ $ref: ref });
    validators.set(jsonPointer, validate);
  }
  return validate;
}

/** Ajv's errors as short readable lines: `/data/links/0 must match format "uri"`. */
export function describeErrors(errors: ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).map((error) => {
    const where = error.instancePath || '(root)';
    const extra = error.keyword === 'additionalProperties' ? ` (${String(error.params.additionalProperty)})` : '';
    return `${where} ${error.message ?? error.keyword}${extra}`;
  });
}

/** Pointer to the schema of an operation's response body for one status and media type. */
export function responseSchemaPointer(operation: ContractOperation, status: string, mediaType = 'application/json'): string | undefined {
  const responses = operation.object.responses as Json;
  const response = responses[status];
  if (!response) return undefined;
  const base = typeof (response as Json).$ref === 'string'
    ? ((response as Json).$ref as string).slice(1)
    : `/paths/${escapePointer(operation.path)}/${operation.method}/responses/${status}`;
  const content = (resolve(response).content ?? {}) as Json;
  return content[mediaType] ? `${base}/content/${escapePointer(mediaType)}/schema` : undefined;
}

function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}
