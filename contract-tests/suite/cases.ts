/**
 * The one table of contract cases. Every operation gets its valid request (success), a call
 * without a key, and invalid variants derived from the contract (a missing required parameter or
 * body field, a wrong type, a value outside an enum, an unknown field in a closed body, malformed
 * JSON, a body that is not JSON); plus unknown paths and wrong methods. Cases marked for the mock
 * only select answers with Prism's `Prefer` header: every declared status, every named example,
 * and dynamic data.
 */
import { expect } from 'vitest';
import type { ErrorCode } from '../../generated/errors.ts';
import { contractOperations, resolve, type ContractOperation } from '../contract.ts';
import { edgeCases } from './edge-cases.ts';
import { liveCases } from './live-cases.ts';
import { rateLimitCases } from './rate-limit-cases.ts';
import { upstreamCases } from './upstream-cases.ts';
import { requestEchoCases } from './request-echo-cases.ts';
import type { KeyRole, TargetName } from './targets.ts';
import { validRequests, type CallResult, type OperationId, type ValidRequest } from './valid-requests.ts';

type Json = Record<string, unknown>;

export interface ContractCase {
  name: string;
  /** The operation addressed, or null for a path that matches none. */
  operation: ContractOperation | null;
  method: string;
  /** Path below `/v1` (or a full path starting with `/` when `rawPath` is set), `{params}` filled by `prepare`. */
  path: string;
  /** The path is sent as is, without the target's `/v1` base. */
  rawPath?: boolean;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  body?: unknown;
  /** A body sent verbatim instead of `body` (malformed JSON, another media type). */
  rawBody?: { text: string; contentType: string };
  /** The JSON body sent in UTF-16LE (labelled `charset=utf-16le`) or in UTF-8 after a byte-order mark. */
  bodyEncoding?: 'utf-16le' | 'utf-8 with a BOM';
  /** Leave out the API key. */
  withoutKey?: boolean;
  /** Send the target's key in this state instead of its valid key (targets without one skip the case). */
  keyRole?: KeyRole;
  prepare?: ValidRequest['prepare'];
  expected: {
    status: number;
    code?: ErrorCode;
    /** Fragments the error message must contain (the offending parameter's name). */
    messageIncludes?: string[];
    check?: (answer: CallResult) => void;
  };
  /** Targets this case holds on; all when absent. */
  only?: TargetName[];
  /** The case needs the operation to succeed first: targets without a provider for it skip it. */
  needsProvider?: boolean;
}

const operations = contractOperations();

function withoutKey<T extends Record<string, unknown>>(record: T | undefined, key: string): T {
  const copy = { ...(record ?? {}) } as T;
  delete copy[key];
  return copy;
}

function queryParameters(operation: ContractOperation): Json[] {
  return ((operation.object.parameters as Json[]) ?? []).map((parameter) => resolve(parameter)).filter((parameter) => parameter.in === 'query');
}

function bodySchema(operation: ContractOperation): Json | undefined {
  const requestBody = operation.object.requestBody ? resolve(operation.object.requestBody) : undefined;
  const media = (requestBody?.content as Record<string, Json> | undefined)?.['application/json'];
  return media ? resolve(media.schema) : undefined;
}

function schemaOf(node: unknown): Json {
  return resolve(node);
}

function typeOf(schema: Json): string | undefined {
  return ([] as unknown[]).concat(schema.type ?? []).find((type) => type !== 'null') as string | undefined;
}

/** One value of the wrong JSON type for a schema, or undefined when any value is of the right type. */
function wrongTypeValue(schema: Json, inQuery: boolean): unknown {
  switch (typeOf(schema)) {
    case 'integer':
    case 'number':
      return inQuery ? 'not-a-number' : 'ten';
    case 'boolean':
      return inQuery ? 'maybe' : 'yes';
    case 'string':
      return inQuery ? undefined : 42;
    case 'array':
      return inQuery ? undefined : 'not-a-list';
    default:
      return undefined;
  }
}

function invalid(operation: ContractOperation, name: string, mutate: Partial<ContractCase>, messageIncludes: string[]): ContractCase {
  const valid = validRequests[operation.operationId as OperationId];
  return {
    name: `${operation.operationId}: ${name}`,
    operation,
    method: operation.method.toUpperCase(),
    path: operation.path,
    query: valid.query,
    body: valid.body,
    prepare: valid.prepare,
    ...mutate,
    expected: { status: 422, code: 'invalid_parameters', messageIncludes },
  };
}

function casesOf(operation: ContractOperation): ContractCase[] {
  const valid = validRequests[operation.operationId as OperationId];
  const base = { operation, method: operation.method.toUpperCase(), path: operation.path, query: valid.query, body: valid.body, prepare: valid.prepare };
  const cases: ContractCase[] = [
    {
      ...base,
      name: `${operation.operationId}: succeeds with a valid request`,
      expected: { status: 200, check: (answer) => valid.check(answer.body.data) },
    },
    {
      ...base,
      name: `${operation.operationId}: missing API key`,
      withoutKey: true,
      expected: { status: 401, code: 'api_key_missing' },
    },
    invalid(operation, 'unknown query parameter', { query: { ...valid.query, unknown_option: 'x' } }, ['query.unknown_option']),
    invalid(operation, 'an empty Idempotency-Key', { headers: { 'Idempotency-Key': '' } }, ['headers.idempotency-key']),
  ];

  for (const parameter of queryParameters(operation)) {
    const name = parameter.name as string;
    const schema = schemaOf(parameter.schema);
    if (parameter.required) {
      cases.push(invalid(operation, `missing required query ${name}`, { query: withoutKey(valid.query, name) }, [`query.${name}`]));
    }
    const wrong = wrongTypeValue(schema, true);
    if (wrong !== undefined) {
      cases.push(invalid(operation, `query ${name} of the wrong type`, { query: { ...valid.query, [name]: String(wrong) } }, [`query.${name}`]));
    }
    if (Array.isArray(schema.enum)) {
      cases.push(invalid(operation, `query ${name} outside its enum`, { query: { ...valid.query, [name]: 'not-in-enum' } }, [`query.${name}`]));
    }
    if (Number(schema.minLength) >= 1) {
      cases.push(invalid(operation, `query ${name} empty, below its minLength`, { query: { ...valid.query, [name]: '' } }, [`query.${name}`]));
    }
  }

  const schema = bodySchema(operation);
  if (schema) {
    const properties = (schema.properties ?? {}) as Record<string, Json>;
    const validBody = valid.body ?? {};
    for (const name of (schema.required as string[] | undefined) ?? []) {
      cases.push(invalid(operation, `missing required body field ${name}`, { body: withoutKey(validBody, name) }, [name]));
    }
    for (const [name, property] of Object.entries(properties)) {
      const propertySchema = schemaOf(property);
      const wrong = wrongTypeValue(propertySchema, false);
      if (wrong !== undefined) cases.push(invalid(operation, `body field ${name} of the wrong type`, { body: { ...validBody, [name]: wrong } }, [`body.${name}`]));
      if (Array.isArray(propertySchema.enum)) {
        cases.push(invalid(operation, `body field ${name} outside its enum`, { body: { ...validBody, [name]: 'not-in-enum' } }, [`body.${name}`]));
      }
    }
    if (schema.additionalProperties === false) {
      cases.push(invalid(operation, 'unknown field in the closed body', { body: { ...validBody, unknown_field: true } }, ['body.unknown_field']));
    }
    cases.push({
      ...base,
      name: `${operation.operationId}: malformed JSON body`,
      rawBody: { text: '{"url": "https://example.com",', contentType: 'application/json' },
      expected: { status: 422, code: 'invalid_json_body' },
    });
    cases.push({
      ...base,
      name: `${operation.operationId}: body that is not JSON`,
      rawBody: { text: 'url=https://example.com', contentType: 'application/x-www-form-urlencoded' },
      expected: { status: 422, code: 'unsupported_media_type' },
    });
    cases.push({
      ...base,
      name: `${operation.operationId}: JSON body in charset latin1`,
      rawBody: { text: JSON.stringify(valid.body ?? {}), contentType: 'application/json; charset=latin1' },
      expected: { status: 422, code: 'unsupported_media_type', messageIncludes: ['unsupported charset "LATIN1"'] },
    });
    cases.push({
      ...base,
      name: `${operation.operationId}: JSON body in charset utf-9, of the UTF family by name but unknown to the decoder`,
      rawBody: { text: JSON.stringify(valid.body ?? {}), contentType: 'application/json; charset=utf-9' },
      expected: { status: 422, code: 'unsupported_media_type', messageIncludes: ['unsupported charset "UTF-9"'] },
    });
    cases.push({
      ...base,
      name: `${operation.operationId}: body in a Content-Encoding the service does not read`,
      headers: { 'content-encoding': 'x-unknown' },
      rawBody: { text: JSON.stringify(valid.body ?? {}), contentType: 'application/json' },
      expected: { status: 422, code: 'unsupported_media_type', messageIncludes: ['unsupported content encoding "x-unknown"'] },
    });
    cases.push({
      ...base,
      name: `${operation.operationId}: plain JSON body labelled Content-Encoding: gzip`,
      headers: { 'content-encoding': 'gzip' },
      rawBody: { text: JSON.stringify(valid.body ?? {}), contentType: 'application/json' },
      expected: { status: 422, code: 'malformed_request', messageIncludes: ['Content-Encoding (gzip)'] },
    });
    // The server's parser (body-parser) decodes a body in its charset and drops a byte-order mark; the mock reads it the same way.
    for (const bodyEncoding of ['utf-16le', 'utf-8 with a BOM'] as const) {
      cases.push({
        ...base,
        name: `${operation.operationId}: succeeds with its JSON body in ${bodyEncoding}`,
        bodyEncoding,
        expected: { status: 200, check: (answer) => valid.check(answer.body.data) },
      });
    }
    cases.push({
      ...base,
      name: `${operation.operationId}: JSON body labelled application/vnd.api+json`,
      rawBody: { text: JSON.stringify(valid.body ?? {}), contentType: 'application/vnd.api+json' },
      expected: { status: 422, code: 'unsupported_media_type', messageIncludes: ['application/vnd.api+json'] },
    });
  }
  return cases;
}

/** Mock-only cases: each declared status, each named example and dynamic data, selected with `Prefer`. */
function selectionCasesOf(operation: ContractOperation): ContractCase[] {
  const valid = validRequests[operation.operationId as OperationId];
  const base = { operation, method: operation.method.toUpperCase(), path: operation.path, query: valid.query, body: valid.body, prepare: valid.prepare, only: ['mock' as TargetName] };
  const responses = operation.object.responses as Record<string, Json>;
  const cases: ContractCase[] = [];
  for (const status of Object.keys(responses).filter((status) => status !== '200')) {
    cases.push({ ...base, name: `${operation.operationId}: Prefer code=${status}`, headers: { Prefer: `code=${status}` }, expected: { status: Number(status) } });
  }
  const examples = ((resolve(responses['200']).content as Record<string, Json>)['application/json']!.examples ?? {}) as Record<string, Json>;
  for (const [exampleName, example] of Object.entries(examples)) {
    const exampleData = (resolve(example).value as Json).data;
    cases.push({
      ...base,
      name: `${operation.operationId}: Prefer example=${exampleName}`,
      headers: { Prefer: `example=${exampleName}` },
      expected: { status: 200, check: (answer) => expect(answer.body.data).toEqual(exampleData) },
    });
  }
  for (const seed of ['1', '2', '3']) {
    cases.push({
      ...base,
      name: `${operation.operationId}: Prefer dynamic=true (seed ${seed})`,
      headers: { Prefer: `dynamic=true, seed=${seed}` },
      expected: { status: 200, check: (answer) => expect(answer.body.credits_used).toBe(operation.object['x-credit-cost']) },
    });
  }
  cases.push({
    ...base,
    name: `${operation.operationId}: Prefer code of an undeclared status`,
    headers: { Prefer: 'code=418' },
    expected: { status: 422, code: 'invalid_parameters', messageIncludes: ['418'] },
  });
  return cases;
}

/** Rules across parameters that the schemas cannot express (lib/cross-parameter-rules.ts), one case each. */
function crossParameterCases(): ContractCase[] {
  const operation = (operationId: OperationId) => operations.find((candidate) => candidate.operationId === operationId)!;
  const extract = operation('extractWebData');
  const search = operation('searchWeb');
  const history = operation('getPriceHistory');
  const events = operation('listSocialEvents');
  return [
    invalid(extract, 'neither schema nor prompt', { query: withoutKey(validRequests.extractWebData.query, 'prompt') }, ['query.schema', 'query.prompt']),
    invalid(extract, 'a schema whose root is not an object', { query: { ...withoutKey(validRequests.extractWebData.query, 'prompt'), schema: '{"type":"array"}' } }, ['query.schema']),
    invalid(search, 'both include_domains and exclude_domains', { query: { ...validRequests.searchWeb.query, include_domains: 'a.com', exclude_domains: 'b.com' } }, ['query.include_domains']),
    invalid(history, 'range and start together', { query: { ...validRequests.getPriceHistory.query, range: '1y', start: '2026-01-01' } }, ['query.range']),
    invalid(events, 'until before since', { query: { ...validRequests.listSocialEvents.query, since: '2026-05-02', until: '2026-05-01' } }, ['query.until']),
  ];
}

const routingCases: ContractCase[] = [
  {
    name: 'unknown path below /v1',
    operation: null,
    method: 'GET',
    path: '/web/scrapes',
    expected: { status: 404, code: 'endpoint_not_found', check: (answer) => expect(answer.body.platform).toBe('unknown') },
  },
  {
    name: 'unknown platform',
    operation: null,
    method: 'GET',
    path: '/videos/list',
    expected: { status: 404, code: 'endpoint_not_found' },
  },
  {
    name: 'path outside /v1',
    operation: null,
    method: 'GET',
    path: '/v2/web/scrape',
    rawPath: true,
    expected: { status: 404, code: 'endpoint_not_found' },
  },
  {
    name: 'wrong method on a GET path',
    operation: null,
    method: 'PUT',
    path: '/web/scrape',
    expected: { status: 405, code: 'method_not_allowed', check: (answer) => expect(answer.headers.get('Allow')).toBe('GET') },
  },
  {
    name: 'wrong method on a POST path',
    operation: null,
    method: 'GET',
    path: '/web/crawl',
    expected: { status: 405, code: 'method_not_allowed', check: (answer) => expect(answer.headers.get('Allow')).toBe('POST') },
  },
  {
    name: 'wrong method on a path with several methods',
    operation: null,
    method: 'POST',
    path: '/web/monitors/mon_01JD4Q9B2C3D4E5F6G7H8J9K0M',
    expected: { status: 405, code: 'method_not_allowed', check: (answer) => expect(answer.headers.get('Allow')?.split(', ').sort()).toEqual(['DELETE', 'GET', 'PATCH']) },
  },
];

/** The platform scope an operation's security requirement names. */
function scopeOf(operation: ContractOperation): string | undefined {
  const requirement = (operation.object.security as Record<string, string[]>[] | undefined)?.[0];
  return requirement ? Object.values(requirement)[0]?.[0] : undefined;
}

/**
 * Keys in every state against every operation, on targets with real keys: unknown, revoked and
 * expired keys (401), a key without the operation's scope (403), a key without credits for a
 * charged operation (402), and a key past its rate limit (429, with Retry-After). Path parameters
 * need not exist: keys are checked first.
 */
function keyCasesOf(operation: ContractOperation): ContractCase[] {
  const valid = validRequests[operation.operationId as OperationId];
  const base = { operation, method: operation.method.toUpperCase(), path: operation.path, query: valid.query, body: valid.body };
  const cases: ContractCase[] = [
    { ...base, name: `${operation.operationId}: unknown API key`, keyRole: 'invalid', expected: { status: 401, code: 'api_key_invalid' } },
    { ...base, name: `${operation.operationId}: revoked API key`, keyRole: 'revoked', expected: { status: 401, code: 'api_key_revoked' } },
    { ...base, name: `${operation.operationId}: expired API key`, keyRole: 'expired', expected: { status: 401, code: 'api_key_expired' } },
    {
      ...base,
      name: `${operation.operationId}: API key past its rate limit`,
      keyRole: 'rateLimited',
      expected: { status: 429, code: 'rate_limited', check: (answer) => expect(Number(answer.headers.get('Retry-After'))).toBeGreaterThan(0) },
    },
  ];
  if (scopeOf(operation) !== 'finance') {
    cases.push({ ...base, name: `${operation.operationId}: API key without the ${scopeOf(operation)} scope`, keyRole: 'financeOnly', expected: { status: 403, code: 'scope_denied', messageIncludes: [String(scopeOf(operation))] } });
  }
  if (Number(operation.object['x-credit-cost']) > 0) {
    cases.push({
      ...base,
      name: `${operation.operationId}: API key without credits`,
      keyRole: 'noCredits',
      expected: { status: 402, code: 'insufficient_credits', check: (answer) => expect(answer.body.credits_used).toBe(0) },
    });
  }
  return cases;
}

const SERVERS: TargetName[] = ['server', 'server-live', 'server-upstreams', 'server-postgres'];
const UNKNOWN_IDS: Record<string, string> = { job_id: 'job_01M7W3QYVRK6724RN1MPS1JQRE', monitor_id: 'mon_01JD8XE6SZAEAVSNTCPM5Q1NXW' };

/**
 * State the servers keep, which the mock (stateless) cannot: an id that names nothing answers 404
 * resource_not_found, and an Idempotency-Key used for one request answers 409
 * idempotency_key_reused for another.
 */
function stateCasesOf(operation: ContractOperation): ContractCase[] {
  const valid = validRequests[operation.operationId as OperationId];
  const base = { operation, method: operation.method.toUpperCase(), path: operation.path, query: valid.query, body: valid.body, only: SERVERS };
  const cases: ContractCase[] = [];
  const pathParameters = [...operation.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);
  if (pathParameters.length > 0) {
    cases.push({
      ...base,
      name: `${operation.operationId}: an id that names nothing`,
      prepare: async () => Object.fromEntries(pathParameters.map((name) => [name, UNKNOWN_IDS[name]!])),
      expected: { status: 404, code: 'resource_not_found' },
    });
  }
  if (valid.otherBody) {
    const idempotencyKey = `contract-${operation.operationId}-${Math.random().toString(36).slice(2)}`;
    cases.push({
      ...base,
      name: `${operation.operationId}: an Idempotency-Key reused for another request`,
      needsProvider: true,
      body: valid.otherBody,
      headers: { 'Idempotency-Key': idempotencyKey },
      prepare: async (call) => {
        const parameters = valid.prepare ? await valid.prepare(call) : {};
        const path = operation.path.replace(/\{(\w+)\}/g, (_, name: string) => parameters[name]!);
        const first = await call({ method: base.method, path, query: valid.query, body: valid.body, headers: { 'Idempotency-Key': idempotencyKey } });
        expect(first.status, `the key's first request: ${JSON.stringify(first.body)}`).toBe(200);
        return parameters;
      },
      expected: { status: 409, code: 'idempotency_key_reused', check: (answer) => expect(answer.body.credits_used).toBe(0) },
    });
  }
  return cases;
}

/** Every shared case, in a stable order. */
export const contractCases: ContractCase[] = [
  ...operations.flatMap(casesOf),
  ...crossParameterCases(),
  ...operations.flatMap(keyCasesOf),
  ...operations.flatMap(stateCasesOf),
  ...requestEchoCases,
  ...routingCases,
  ...operations.flatMap(selectionCasesOf),
  ...liveCases,
  ...upstreamCases,
  ...edgeCases,
  ...rateLimitCases,
];
