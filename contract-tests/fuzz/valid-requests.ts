/**
 * Valid requests of an operation, from its parameters' and body's schemas: required parameters
 * always, optional ones sometimes, headers within what HTTP carries, path ids mostly of a job or
 * monitor the fuzzer creates first (else any valid id, hostile spellings such as `..` included),
 * and only requests that the rules across parameters (lib/cross-parameter-rules.ts) and the
 * prose of the contract (prose-values.ts) accept.
 */
import fc from 'fast-check';
import { crossParameterProblem } from '../../lib/cross-parameter-rules.ts';
import type { FuzzOperation, FuzzParameter } from './operations.ts';
import { followMonitorRules, proseValues } from './prose-values.ts';
import { CREATED_ID, type FuzzRequest } from './request.ts';
import { schemaArbitrary } from './schema-arbitrary.ts';

/** Path ids within the schema (1 to 64 characters) that a path-walking reader could mistake. */
export const HOSTILE_VALID_IDS = ['..', '.', '../../etc/passwd', '%00', '\u0000', 'a/b', '%2e%2e%2f', '..\\..', ' ', 'job_01M7W3QYVRK6724RN1MPS1JQRE', 'x'.repeat(64)];

/**
 * Parameters valid only with a value the target issued (the contract: "A cursor that was not issued
 * for this list and key answers 422"): a valid request leaves them out, and the runner follows the
 * `next_cursor` a list answers with.
 */
export const ISSUED_ONLY = ['cursor'];

/** Other spellings of the JSON media type (RFC 9110: case-insensitive, parameters allowed). */
const JSON_SPELLINGS = ['application/json; charset=utf-8', 'application/json;charset=UTF-8', 'Application/JSON'];

/** Header values: visible ASCII with inner spaces, as HTTP carries them (no leading or trailing space). */
function headerArbitrary(parameter: FuzzParameter): fc.Arbitrary<string> {
  const { schema } = parameter;
  const min = schema.minLength ?? 0;
  const max = schema.maxLength ?? 256;
  if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern)).filter((text) => text.length >= min && text.length <= max);
  const visible = fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code));
  return fc.string({ unit: visible, minLength: min, maxLength: Math.min(max, 40) }).map((text) => text.trim()).filter((text) => text.length >= min);
}

function queryText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

const CROSS_RULE_CLOCK_MS = Date.now();

/** The valid requests of `operation`. */
export function validRequests(operation: FuzzOperation): fc.Arbitrary<FuzzRequest> {
  const query = operation.parameters.filter((parameter) => parameter.in === 'query' && !ISSUED_ONLY.includes(parameter.name));
  const path = operation.parameters.filter((parameter) => parameter.in === 'path');
  const headers = operation.parameters.filter((parameter) => parameter.in === 'header');

  const queryArbitrary = fc.record(
    Object.fromEntries(query.map((parameter) => [parameter.name, schemaArbitrary(parameter.schema, proseValues, parameter.name)])),
    { requiredKeys: query.filter((parameter) => parameter.required).map((parameter) => parameter.name) },
  ).filter((values) => crossParameterProblem(operation.operationId, Object.fromEntries(Object.entries(values).map(([name, value]) => [name, queryText(value)])), CROSS_RULE_CLOCK_MS) === undefined);

  const pathArbitrary = fc.record(Object.fromEntries(path.map((parameter) => [parameter.name, fc.oneof(
    { weight: 4, arbitrary: fc.constant(CREATED_ID) },
    { weight: 1, arbitrary: fc.constantFrom(...HOSTILE_VALID_IDS) },
    { weight: 1, arbitrary: schemaArbitrary(parameter.schema) as fc.Arbitrary<string> },
  )])));

  const headerValues = fc.record(Object.fromEntries(headers.map((parameter) => [parameter.name, headerArbitrary(parameter)])), { requiredKeys: headers.filter((parameter) => parameter.required).map((parameter) => parameter.name) });

  let bodyArbitrary: fc.Arbitrary<unknown> = fc.constant(undefined);
  if (operation.body) {
    const object = schemaArbitrary(operation.body.schema, proseValues) as fc.Arbitrary<Record<string, unknown>>;
    const shaped = operation.operationId === 'createMonitor' ? object.map((body) => followMonitorRules(body, 'create'))
      : operation.operationId === 'updateMonitor' ? object.map((body) => followMonitorRules(body, 'update'))
        : object;
    bodyArbitrary = operation.body.required ? shaped : fc.option(shaped, { nil: undefined });
  }

  const contentType = fc.constantFrom(undefined, ...JSON_SPELLINGS);
  return fc.record({ query: queryArbitrary, pathParams: pathArbitrary, headers: headerValues, body: bodyArbitrary, contentType }).map(({ query: values, pathParams, headers: headerMap, body, contentType: type }) => {
    const request: FuzzRequest = {
      operationId: operation.operationId,
      method: operation.method,
      path: operation.path,
      pathParams: pathParams as Record<string, string>,
      query: query.filter((parameter) => parameter.name in values).map((parameter) => [parameter.name, queryText(values[parameter.name])]),
      headers: headerMap as Record<string, string>,
      key: 'valid',
    };
    if (body !== undefined) request.body = body;
    if (body !== undefined && type !== undefined) request.contentType = type;
    return request;
  });
}
