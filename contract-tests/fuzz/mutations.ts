/**
 * Requests made invalid by exactly one mutation of a valid one: a wrong type, a value out of
 * range, a required parameter or field missing, an unknown enum value, an unknown parameter or
 * field, an unusual code point in a patterned value, malformed JSON, a wrong media type, a
 * parameter given twice or empty, an over-long or badly percent-encoded path id, a URL of a
 * non-public address, a missing or wrong key.
 */
import { withContractFormats } from '../../lib/contract-formats.ts';
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import type { FuzzOperation, FuzzParameter, Schema } from './operations.ts';
import { proseValues } from './prose-values.ts';
import { typedQueryValue } from './request-problems.ts';
import type { FuzzRequest, KeyUse } from './request.ts';
import { codePointLength, schemaArbitrary } from './schema-arbitrary.ts';
import { validRequests } from './valid-requests.ts';

export const MUTATION_KINDS = [
  'wrong-type', 'out-of-range', 'missing-required', 'unknown-enum', 'unknown-property', 'unusual-string', 'malformed-json',
  'wrong-media-type', 'duplicated-parameter', 'empty-parameter', 'hostile-path-id', 'non-public-url', 'missing-key', 'wrong-key',
] as const;
export type MutationKind = (typeof MUTATION_KINDS)[number];

export interface Mutation {
  kind: MutationKind;
  /** `kind where`, such as `out-of-range query.limit`. */
  label: string;
  apply(request: FuzzRequest): FuzzRequest;
}

const ajv = withContractFormats(new Ajv2020({ strict: false, allErrors: false }));

function accepts(schema: Schema, value: unknown): boolean {
  return ajv.validate(schema, value) as boolean;
}

function typeOf(schema: Schema): string | undefined {
  return Array.isArray(schema.type) ? schema.type[0] : schema.type;
}

type Target = { where: 'query' | 'header' | 'body'; name: string; schema: Schema; required: boolean };

function targets(operation: FuzzOperation): Target[] {
  const parameters = operation.parameters.filter((parameter) => parameter.in !== 'path')
    .map((parameter: FuzzParameter): Target => ({ where: parameter.in as 'query' | 'header', name: parameter.name, schema: parameter.schema, required: parameter.required }));
  const body = operation.body?.schema;
  const fields = Object.entries((body?.properties ?? {}) as Record<string, Schema>)
    .map(([name, schema]): Target => ({ where: 'body', name, schema, required: ((body?.required ?? []) as string[]).includes(name) }));
  return [...parameters, ...fields];
}

/** The request with `target` set to `value` (text for a query parameter or header, JSON for a body field). */
function withValue(request: FuzzRequest, target: Target, value: unknown): FuzzRequest {
  if (target.where === 'query') return { ...request, query: [...request.query.filter(([name]) => name !== target.name), [target.name, String(value)]] };
  if (target.where === 'header') return { ...request, headers: { ...request.headers, [target.name]: String(value) } };
  return { ...request, body: { ...((request.body ?? {}) as Record<string, unknown>), [target.name]: value } };
}

function without(request: FuzzRequest, target: Target): FuzzRequest {
  if (target.where === 'query') return { ...request, query: request.query.filter(([name]) => name !== target.name) };
  const body = { ...((request.body ?? {}) as Record<string, unknown>) };
  delete body[target.name];
  return { ...request, body };
}

function mutation(kind: MutationKind, where: string, apply: (request: FuzzRequest) => FuzzRequest): Mutation {
  return { kind, label: `${kind} ${where}`, apply: (request) => ({ ...apply(request), mutation: `${kind} ${where}` }) };
}

function place(target: Target): string {
  return `${target.where}.${target.name}`;
}

/** Candidates for a target's wrong value, kept when its schema refuses them. */
function wrongTypeValues(target: Target): unknown[] {
  if (target.where !== 'body') {
    const texts = ['abc', '1.5', 'true', '\uFF11', 'yes', '1', 'on', 'null', '[]', '5abc'];
    return texts.filter((text) => !accepts(target.schema, typedQueryValue(text, target.schema)));
  }
  return [12345, 7.5, true, 'text', null, ['x'], {}].filter((value) => !accepts(target.schema, value));
}

function outOfRangeValues(target: Target): unknown[] {
  const { schema } = target;
  const type = typeOf(schema);
  const values: unknown[] = [];
  if (type === 'integer' || type === 'number') {
    if (schema.minimum !== undefined) values.push(schema.minimum - 1);
    if (schema.maximum !== undefined) values.push(schema.maximum + 1, 10 ** 20);
  }
  if (type === 'string' || (schema.anyOf && schema.maxLength === undefined)) {
    const stringSchema = type === 'string' ? schema : (schema.anyOf as Schema[]).find((branch) => branch.type === 'string') ?? {};
    if (stringSchema.maxLength !== undefined) {
      values.push('x'.repeat(stringSchema.maxLength + 1));
      if (target.where !== 'header') values.push('😀'.repeat(stringSchema.maxLength + 1), `${'\u202E'.repeat(stringSchema.maxLength)}\u0000`);
    }
    if ((stringSchema.minLength ?? 0) > 1 || ((stringSchema.minLength ?? 0) === 1 && target.where === 'body')) values.push('x'.repeat(stringSchema.minLength - 1));
  }
  if (type === 'array') {
    if (schema.minItems) values.push([]);
    if (schema.maxItems !== undefined) values.push(Array.from({ length: schema.maxItems + 1 }, (_item, index) => `https://example.com/${index}`));
  }
  return values.map((value) => (target.where === 'body' ? value : String(value))).filter((value) => !accepts(target.schema, target.where === 'body' ? value : typedQueryValue(value as string, target.schema)));
}

function unknownEnumValues(target: Target): string[] {
  const values = target.schema.enum as string[] | undefined;
  if (!values) return [];
  return [`${values[0]}x`, values[0]!.toUpperCase(), ` ${values[0]}`, 'unknown_value'].filter((value) => !values.includes(value));
}

/** Code points no pattern or format of the contract allows. */
const FOREIGN_CODE_POINTS = ['\u0000', '\u202E', '\u200F', '\uFEFF', '\u200B', '\u0301', '\u2028', '😀', '𝕏', 'ß', '中', '\u00A0', ' '];

const UNKNOWN_QUERY_NAMES = ['fuzz', 'Limit', 'url[]', '__proto__', 'constructor', 'a b', '\u00FC'];
const UNKNOWN_BODY_FIELDS = ['fuzz', '__proto__', 'constructor', 'URL', 'extra field'];
const MALFORMED_JSON = ['{"url": ', '{url: 1}', "{'url': 'https://example.com'}", '[1,]', 'nul', '{"a":1}}', '{"a":"\\x"}', '\u007B"a":\u0001}'];
const WRONG_MEDIA_TYPES = ['text/plain', 'application/x-www-form-urlencoded', 'application/xml', 'multipart/form-data; boundary=fuzz'];
const HOSTILE_UNITS = ['../', '%00', '\u0000', '😀', '..%2F', 'a'];
/** URLs within `format: uri` that PageUrl's prose refuses: non-public addresses by several spellings, a host no URL parser takes. */
const NON_PUBLIC_URLS = ['http://127.0.0.1/', 'http://[::1]/admin', 'http://169.254.169.254/latest/meta-data/', 'http://localhost:8080/', 'http://10.0.0.1/', 'http://0x7f.1/', 'https://a.0/'];
/** Path ids written as is whose percent-encoding is not UTF-8. */
const MALFORMED_ENCODINGS = ['%FF', '%', 'job_%E0%A4%A', '%C0%AE%C0%AE', 'mon_%zz'];

/** The mutations that apply to `operation`; `keys` are the key uses the target can tell from a valid key. */
export function mutationsOf(operation: FuzzOperation, keys: readonly KeyUse[] = ['missing', 'wrong']): fc.Arbitrary<Mutation>[] {
  const arbitraries: fc.Arbitrary<Mutation>[] = [];
  const all = targets(operation);
  const fromValues = (kind: MutationKind, target: Target, values: unknown[]) => {
    if (values.length > 0) arbitraries.push(fc.constantFrom(...values).map((value) => mutation(kind, place(target), (request) => withValue(request, target, value))));
  };
  for (const target of all) {
    const uri = target.schema.format === 'uri' || (target.schema.anyOf as Schema[] | undefined)?.some((branch) => branch.format === 'uri');
    if (uri && target.where !== 'header') fromValues('non-public-url', target, NON_PUBLIC_URLS);
    if (target.name === 'urls' && target.where === 'body') fromValues('non-public-url', target, NON_PUBLIC_URLS.map((url) => [url]));
    if (target.where !== 'header') fromValues('wrong-type', target, wrongTypeValues(target));
    fromValues('out-of-range', target, outOfRangeValues(target));
    fromValues('unknown-enum', target, unknownEnumValues(target));
    if (target.required) arbitraries.push(fc.constant(mutation('missing-required', place(target), (request) => without(request, target))));
    const patterned = typeOf(target.schema) === 'string' && !target.schema.enum && (target.schema.pattern || target.schema.format);
    if (patterned && target.where !== 'header') {
      arbitraries.push(fc.tuple(schemaArbitrary(target.schema, proseValues, target.name) as fc.Arbitrary<string>, fc.constantFrom(...FOREIGN_CODE_POINTS), fc.boolean())
        .map(([valid, foreign, atEnd]) => mutation('unusual-string', place(target), (request) => withValue(request, target, atEnd ? `${valid}${foreign}` : `${foreign}${valid}`))));
    }
    if (target.where === 'query') {
      arbitraries.push(schemaArbitrary(target.schema, proseValues, target.name).map((value) => mutation('duplicated-parameter', place(target), (request) => {
        const given = request.query.find(([name]) => name === target.name)?.[1] ?? String(value);
        return { ...request, query: [...request.query.filter(([name]) => name !== target.name), [target.name, given], [target.name, String(value)]] };
      })));
    }
    if (target.where !== 'body' && !accepts(target.schema, typedQueryValue('', target.schema))) arbitraries.push(fc.constant(mutation('empty-parameter', place(target), (request) => withValue(request, target, ''))));
  }
  const unknownQuery = operation.parameters.some((parameter) => parameter.in === 'query') || operation.method === 'GET' ? UNKNOWN_QUERY_NAMES : [];
  if (unknownQuery.length > 0) {
    arbitraries.push(fc.constantFrom(...unknownQuery).map((name) => mutation('unknown-property', `query.${name}`, (request) => ({ ...request, query: [...request.query, [name, '1']] }))));
  }
  if (operation.body) {
    const body = operation.body;
    if (body.schema.additionalProperties === false) {
      arbitraries.push(fc.constantFrom(...UNKNOWN_BODY_FIELDS).map((name) => mutation('unknown-property', `body.${name}`, (request) => {
        const extended = { ...((request.body ?? {}) as Record<string, unknown>) };
        Object.defineProperty(extended, name, { value: 'fuzz', enumerable: true, configurable: true, writable: true });
        return { ...request, body: extended };
      })));
    }
    arbitraries.push(fc.constantFrom(['text'], 42, 'text', null, true).map((value) => mutation('wrong-type', 'body', (request) => ({ ...request, body: value }))));
    if (body.required) arbitraries.push(fc.constant(mutation('missing-required', 'body', (request) => ({ ...request, body: undefined }))));
    arbitraries.push(fc.constantFrom(...MALFORMED_JSON).map((text) => mutation('malformed-json', 'body', (request) => ({ ...request, rawBody: text }))));
    arbitraries.push(fc.constantFrom(...WRONG_MEDIA_TYPES).map((type) => mutation('wrong-media-type', 'body', (request) => ({ ...request, body: request.body ?? {}, contentType: type }))));
  }
  for (const parameter of operation.parameters.filter((candidate) => candidate.in === 'path')) {
    arbitraries.push(fc.constantFrom(...MALFORMED_ENCODINGS).map((written) => mutation('hostile-path-id', `path.${parameter.name}`, (request) => ({
      ...request, pathParams: { ...request.pathParams, [parameter.name]: written }, rawPathParams: [parameter.name],
    }))));
    const max = parameter.schema.maxLength ?? 64;
    arbitraries.push(fc.tuple(fc.constantFrom(...HOSTILE_UNITS), fc.integer({ min: max + 1, max: 2000 })).map(([unit, length]) => mutation('hostile-path-id', `path.${parameter.name}`, (request) => ({
      ...request, pathParams: { ...request.pathParams, [parameter.name]: unit.repeat(Math.ceil(length / codePointLength(unit))) },
    }))));
  }
  for (const key of keys) if (key !== 'valid') arbitraries.push(fc.constant(mutation(key === 'missing' ? 'missing-key' : 'wrong-key', 'headers.x-api-key', (request) => ({ ...request, key }))));
  return arbitraries;
}

/** Requests of `operation` made invalid by one mutation each. */
export function invalidRequests(operation: FuzzOperation, keys?: readonly KeyUse[]): fc.Arbitrary<FuzzRequest> {
  return fc.tuple(validRequests(operation), fc.oneof(...mutationsOf(operation, keys))).map(([request, chosen]) => chosen.apply(request));
}
