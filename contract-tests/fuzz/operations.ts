/**
 * The contract's operations as the fuzzer sees them: each parameter and the request body with its
 * schema resolved (no `$ref` left) and the JSON pointer of that schema in the bundle, for the
 * project's Ajv validator (contract.ts).
 */
import type { OperationId } from '../../generated/operations.ts';
import { contractOperations, resolve } from '../contract.ts';

export type Schema = Record<string, any>;

export interface FuzzParameter {
  name: string;
  in: 'query' | 'path' | 'header';
  required: boolean;
  schema: Schema;
  /** Pointer of the parameter's schema in the bundle. */
  pointer: string;
}

export interface FuzzOperation {
  operationId: OperationId;
  method: string;
  /** Path template below `/v1`. */
  path: string;
  parameters: FuzzParameter[];
  body: { required: boolean; schema: Schema; pointer: string } | null;
}

function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** The schema with every `$ref` replaced by what it points at (the contract's request schemas have no cycles). */
export function dereference(node: unknown, depth = 0): any {
  if (depth > 40) throw new Error('schema nests too deep (a $ref cycle?)');
  if (Array.isArray(node)) return node.map((item) => dereference(item, depth + 1));
  if (!node || typeof node !== 'object') return node;
  const resolved = resolve(node) as Schema;
  return Object.fromEntries(Object.entries(resolved).map(([key, value]) => [key, dereference(value, depth + 1)]));
}

function parameterPointer(operationPointer: string, index: number, parameter: Schema): string {
  return typeof parameter.$ref === 'string' ? `${parameter.$ref.slice(1)}/schema` : `${operationPointer}/parameters/${index}/schema`;
}

function readOperations(): FuzzOperation[] {
  return contractOperations().map(({ operationId, method, path, object }) => {
    const operationPointer = `/paths/${escapePointer(path)}/${method}`;
    const parameters = ((object.parameters ?? []) as Schema[]).map((parameter, index) => {
      const resolved = resolve(parameter) as Schema;
      return { name: resolved.name, in: resolved.in, required: Boolean(resolved.required), schema: dereference(resolved.schema), pointer: parameterPointer(operationPointer, index, parameter) };
    }).filter((parameter) => parameter.in !== 'cookie') as FuzzParameter[];
    let body: FuzzOperation['body'] = null;
    if (object.requestBody) {
      const requestBody = object.requestBody as Schema;
      const base = typeof requestBody.$ref === 'string' ? requestBody.$ref.slice(1) : `${operationPointer}/requestBody`;
      const resolved = resolve(requestBody) as Schema;
      body = { required: Boolean(resolved.required), schema: dereference(resolved.content['application/json'].schema), pointer: `${base}/content/application~1json/schema` };
    }
    return { operationId: operationId as OperationId, method: method.toUpperCase(), path, parameters, body };
  });
}

/** Every operation of the contract, in its order. */
export const fuzzOperations: readonly FuzzOperation[] = readOperations();

export function fuzzOperation(operationId: string): FuzzOperation {
  const operation = fuzzOperations.find((candidate) => candidate.operationId === operationId);
  if (!operation) throw new Error(`unknown operation ${operationId} (known: ${fuzzOperations.map((known) => known.operationId).join(', ')})`);
  return operation;
}
