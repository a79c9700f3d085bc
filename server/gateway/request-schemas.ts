/**
 * What the request validator checks for each operation, built from the contract the way
 * express-openapi-validator built it (its equivalence test keeps it so): one schema over the
 * query, headers and path parameters, typed from text, and one schema per media type of the body.
 */
import type { OperationRow } from '../../generated/operations.ts';
import { contractDocument, resolveRef } from '../../lib/contract-document.ts';

type Schema = Record<string, unknown>;

interface Parameter {
  name: string;
  in: 'query' | 'header' | 'path' | 'cookie';
  required?: boolean;
  schema?: Schema;
  content?: unknown;
  style?: string;
  explode?: boolean;
}

export interface RequestSchemas {
  /** `{ query, headers, params, cookies, body }` with every parameter; `body` left to `bodies`. */
  parameters: Schema;
  /** The body's schema for each media type of the contract, in the contract's order. */
  bodies: { mediaType: string; schema: Schema }[];
  /** Whether the contract says the body is optional (`required: false`): a call may then send none, unlabelled. */
  bodyOptional: boolean;
}

const FIELD_OF: Record<Parameter['in'], 'query' | 'headers' | 'params' | 'cookies'> = { query: 'query', header: 'headers', path: 'params', cookie: 'cookies' };
const SCALAR_TYPES = new Set(['string', 'integer', 'number', 'boolean']);
function operationObject(operation: OperationRow, document: Schema): Schema {
  const pathItem = (document.paths as Record<string, Schema>)[operation.path]!;
  return pathItem[operation.method.toLowerCase()] as Schema;
}

/**
 * A parameter's schema as the validator took it: a `$ref` replaced by the schema it names, its
 * siblings (such as a `default`) dropped. Only text-typed scalars in their default style are
 * taken: anything else would need the decoding of arrays and objects, which this validator and
 * its equivalence test do not cover yet.
 */
function parameterSchema(operation: OperationRow, parameter: Parameter, document: Schema): Schema {
  const schema = resolveRef<Schema>(parameter.schema, document);
  const plain = SCALAR_TYPES.has(schema.type as string) && !parameter.content && parameter.style === undefined && parameter.explode === undefined;
  if (!plain) throw new Error(`${operation.operationId}: the request validator takes scalar parameters in their default style only, not ${parameter.in} ${parameter.name}`);
  return schema;
}

/** `document`: the bundled contract; each schema carries its components, so that their `#/components/...` references resolve. */
export function requestSchemas(operation: OperationRow, document: Schema = contractDocument): RequestSchemas {
  const object = operationObject(operation, document);
  const components = document.components as Schema;
  const fields: Record<string, Schema> = { query: {}, headers: {}, params: {}, cookies: {} };
  for (const reference of (object.parameters ?? []) as unknown[]) {
    const parameter = resolveRef<Parameter>(reference, document);
    const field = FIELD_OF[parameter.in];
    const name = parameter.in === 'header' ? parameter.name.toLowerCase() : parameter.name;
    const target = (fields[field] = fields[field]!.properties ? fields[field]! : { type: 'object', properties: {} });
    (target.properties as Schema)[name] = parameterSchema(operation, parameter, document);
    if (parameter.required) target.required = [...((target.required as string[] | undefined) ?? []), name];
  }
  const parameters = { components, required: ['query', 'headers', 'params'], properties: { ...fields, body: {} } };

  const requestBody = resolveRef<{ required?: boolean; content?: Record<string, { schema?: Schema }> }>(object.requestBody, document);
  const bodies = Object.entries(requestBody?.content ?? {}).map(([mediaType, { schema }]) => {
    const body = resolveRef<Schema>(schema ?? {}, document);
    // As the validator had it: the body is required when its schema has a `required` list (even an empty one).
    const required = Boolean(body.required);
    return {
      mediaType,
      schema: { components, properties: { query: {}, headers: {}, params: {}, cookies: {}, body }, ...(required ? { required: ['body'] } : {}) },
    };
  });
  return { parameters, bodies, bodyOptional: requestBody?.required === false };
}
