/**
 * The mock's request validation (`request-validation.ts`) against Prism's own `validateInput` as
 * the oracle: the same diagnostics, word for word and in order, for valid requests of every
 * operation, requests made invalid by one mutation each (the fuzzer's), and requests spelled as
 * Prism alone would see them (names in other cases, values repeated, bodies of other types).
 */
import { createRequire } from 'node:module';
import type { IHttpRequest } from '@stoplight/prism-http';
import type { IHttpOperation } from '@stoplight/types';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { invalidRequests } from '../contract-tests/fuzz/mutations.ts';
import { fuzzOperations } from '../contract-tests/fuzz/operations.ts';
import { bodyText, CREATED_ID, type FuzzRequest, requestHeaders, requestTarget } from '../contract-tests/fuzz/request.ts';
import { validRequests } from '../contract-tests/fuzz/valid-requests.ts';
import { contractPath } from '../lib/contract-document.ts';
import { queryRecord } from '../lib/query-record.ts';
import { prismOperations } from './prism-engine.ts';
import { requestValidator, type RequestValidator } from './request-validation.ts';

type Either = { _tag: 'Left'; left: unknown[] } | { _tag: 'Right'; right: unknown };
const { validateInput } = createRequire(import.meta.url)('@stoplight/prism-http/dist/validator') as {
  validateInput: (options: { resource: IHttpOperation; element: IHttpRequest }) => Either;
};

/** What a call gives: its diagnostics, or the error it throws (Prism throws on a `Content-Type` it cannot parse). */
function outcome(check: () => unknown[]): unknown {
  try {
    return { diagnostics: check() };
  } catch (error) {
    return { thrown: String(error) };
  }
}

function prismDiagnostics(resource: IHttpOperation, element: IHttpRequest): unknown[] {
  const validated = validateInput({ resource, element });
  return validated._tag === 'Left' ? validated.left : [];
}

const validators = new Map<IHttpOperation, RequestValidator>();

/** Both validations of `element`, each on its own copy (Ajv coerces values in place). */
function bothOutcomes(resource: IHttpOperation, element: IHttpRequest): { mock: unknown; prism: unknown } {
  if (!validators.has(resource)) validators.set(resource, requestValidator(resource));
  const validate = validators.get(resource)!;
  return { mock: outcome(() => validate(structuredClone(element))), prism: outcome(() => prismDiagnostics(resource, structuredClone(element))) };
}

const CREATED = { job_id: 'job_01M7W3QYVRK6724RN1MPS1JQRE', monitor_id: 'mon_01M7W3QYVRK6724RN1MPS1JQRE' } as Record<string, string>;

/** A fuzzer's request as the mock hands it to Prism: the path below `/v1`, the query as a record, every header, the body parsed. */
function prismInput(request: FuzzRequest): IHttpRequest {
  const pathParams = Object.fromEntries(Object.entries(request.pathParams).map(([name, value]) => [name, value === CREATED_ID ? CREATED[name]! : value]));
  const [path = '', search = ''] = requestTarget({ ...request, pathParams }).split('?');
  const text = bodyText(request);
  const headers: Record<string, string> = Object.fromEntries(Object.entries(requestHeaders(request, 'wsdq_key', 'wrong')).map(([name, value]) => [name.toLowerCase(), value]));
  let body: unknown;
  if (text !== undefined) {
    headers['content-length'] = String(Buffer.byteLength(text));
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
  }
  return { method: request.method.toLowerCase() as IHttpRequest['method'], url: { path: path.slice('/v1'.length), query: queryRecord(new URLSearchParams(search)) }, headers, body };
}

let operations: Map<string, IHttpOperation>;
beforeAll(async () => {
  operations = new Map((await prismOperations(contractPath)).map((operation) => [operation.iid ?? operation.id, operation]));
});

describe("the mock's request validation, Prism's validateInput as the oracle", () => {
  for (const fuzzOperation of fuzzOperations) {
    it(`${fuzzOperation.operationId}: the same diagnostics for valid and one-mutation-invalid requests`, () => {
      const resource = operations.get(fuzzOperation.operationId)!;
      const requests = [
        ...fc.sample(validRequests(fuzzOperation), { numRuns: 40, seed: 14 }),
        ...fc.sample(invalidRequests(fuzzOperation, ['valid']), { numRuns: 120, seed: 14 }),
      ];
      let invalid = 0;
      for (const request of requests) {
        const element = prismInput(request);
        const { mock, prism } = bothOutcomes(resource, element);
        expect(mock, `${request.mutation ?? 'valid'}: ${JSON.stringify(element)}`).toStrictEqual(prism);
        if ((prism as { diagnostics?: unknown[] }).diagnostics?.length) invalid++;
      }
      expect(invalid).toBeGreaterThan(10);
    });
  }

  const SCRAPE = { method: 'get', url: { path: '/web/scrape', query: { url: 'https://example.com/a' } }, headers: {} } satisfies IHttpRequest;
  const CREATE_MONITOR = { method: 'post', url: { path: '/web/monitors', query: {} }, headers: { 'content-type': 'application/json', 'content-length': '2' } } satisfies IHttpRequest;
  const UPDATE_MONITOR = { method: 'patch', url: { path: '/web/monitors/mon_01M7W3QYVRK6724RN1MPS1JQRE', query: {} }, headers: {} } satisfies IHttpRequest;
  const spellings: [string, string, IHttpRequest][] = [
    ['a query name in capitals, which Prism reads in lower case', 'scrapeWebPage', { ...SCRAPE, url: { ...SCRAPE.url, query: { URL: 'https://example.com/a', Wait_For: 'soon' } } }],
    ['a query value repeated', 'scrapeWebPage', { ...SCRAPE, url: { ...SCRAPE.url, query: { url: ['https://example.com/a', 'https://example.com/b'], wait_for: ['1', '2'] } } }],
    ['query names that are object properties', 'scrapeWebPage', { ...SCRAPE, url: { ...SCRAPE.url, query: { ...SCRAPE.url.query, constructor: 'x', __proto__: 'y', toString: 'z' } } }],
    ['an empty query value', 'scrapeWebPage', { ...SCRAPE, url: { ...SCRAPE.url, query: { url: '', timeout: '' } } }],
    ['no query at all', 'scrapeWebPage', { ...SCRAPE, url: { path: '/web/scrape' } }],
    ['header names in other cases, an empty one, one too long', 'scrapeWebPage', { ...SCRAPE, headers: { 'Idempotency-Key': 'x'.repeat(300), 'CACHE-CONTROL': 'no-cache', 'idempotency-key': '' } }],
    ['a Content-Type Prism cannot parse', 'scrapeWebPage', { ...SCRAPE, headers: { 'content-type': ';;;' } }],
    ['a body where none is declared', 'scrapeWebPage', { ...SCRAPE, headers: { 'content-type': 'application/json', 'content-length': '2' }, body: {} }],
    ['a required body missing', 'createMonitor', { ...CREATE_MONITOR, headers: {} }],
    ['a required body that is falsy', 'createMonitor', { ...CREATE_MONITOR, body: 0 }],
    ['a body of another media type', 'createMonitor', { ...CREATE_MONITOR, headers: { 'Content-Type': 'text/plain', 'Content-Length': '2' }, body: {} }],
    ['the body headers given twice, in other cases (the last wins)', 'createMonitor', { ...CREATE_MONITOR, headers: { 'content-type': 'text/plain', 'Content-Type': 'application/json', 'CONTENT-LENGTH': '2', 'content-length': '0' }, body: {} }],
    ['the body headers given twice, the other way round', 'createMonitor', { ...CREATE_MONITOR, headers: { 'Content-Type': 'application/json', 'content-type': 'text/plain', 'content-length': '0', 'CONTENT-LENGTH': '2' }, body: {} }],
    ['a body of a wildcard-matching media type, length unparsable', 'createMonitor', { ...CREATE_MONITOR, headers: { 'content-type': 'application/merge-patch+json', 'content-length': 'many' }, body: { url: 1 } }],
    ['a body that is a list, a string, null', 'createMonitor', { ...CREATE_MONITOR, body: [{}, 'a', null] }],
    ['an optional body left out', 'updateMonitor', UPDATE_MONITOR],
    ['an optional body of the wrong type', 'updateMonitor', { ...UPDATE_MONITOR, headers: { 'content-type': 'application/json', 'content-length': '4' }, body: 'text' }],
    ['a path id too long and badly encoded', 'getMonitor', { method: 'get', url: { path: `/web/monitors/${'%FF'.repeat(70)}`, query: {} }, headers: {} }],
    ['a path the template does not match', 'getJob', { method: 'get', url: { path: '/web/jobs', query: { limit: '0' } }, headers: {} }],
  ];
  for (const [what, operationId, element] of spellings) {
    it(`${what}: the same outcome`, () => {
      const { mock, prism } = bothOutcomes(operations.get(operationId)!, element);
      expect(mock).toStrictEqual(prism);
    });
  }

  // What the contract does not use yet, Prism reads all the same: deprecated parameters, lists,
  // objects, Prism's own `date-time` (a time zone optional), a path parameter.
  const SYNTHETIC = {
    id: 'synthetic', iid: 'synthetic', method: 'get', path: '/things/{thing_id}', responses: [],
    request: {
      path: [{ id: 'p1', name: 'thing_id', style: 'simple', required: true, schema: { type: 'string', maxLength: 3 } }],
      query: [
        { id: 'q1', name: 'at', style: 'form', schema: { type: 'string', format: 'date-time' } },
        { id: 'q2', name: 'ids', style: 'form', explode: false, schema: { type: 'array', items: { type: 'integer' } } },
        { id: 'q3', name: 'tags', style: 'pipeDelimited', schema: { type: 'array', items: { type: 'string', enum: ['a', 'b'] } } },
        { id: 'q4', name: 'old', style: 'form', deprecated: true, schema: { type: 'string' } },
        { id: 'q5', name: 'filter', style: 'deepObject', explode: true, schema: { type: 'object', properties: { size: { type: 'integer' } } } },
      ],
      headers: [{ id: 'h1', name: 'x-old', style: 'simple', deprecated: true, schema: { type: 'integer' } }],
    },
  } as unknown as IHttpOperation;
  const things: [string, IHttpRequest][] = [
    ['valid values', { method: 'get', url: { path: '/things/abc', query: { at: '2026-01-01T10:00:00', ids: '1,2', tags: 'a|b', 'filter[size]': '3' } }, headers: {} }],
    ['invalid values', { method: 'get', url: { path: '/things/abcd', query: { at: '2026-13-01T10:00:00Z', ids: '1,x', tags: 'a|c', old: 'yes', 'filter[size]': 'big' } }, headers: { 'x-old': 'one' } }],
    ['deprecated parameters alone', { method: 'get', url: { path: '/things/abc', query: { old: 'yes' } }, headers: { 'x-old': '1' } }],
  ];
  for (const [what, element] of things) {
    it(`an operation with what the contract does not use yet, ${what}: the same outcome`, () => {
      const { mock, prism } = bothOutcomes(SYNTHETIC, element);
      expect(mock).toStrictEqual(prism);
    });
  }
});
