/**
 * Cases at the edges a new user meets, on every target alike: requests as large as the contract
 * allows (in their worst-case encoding) and one just larger, a valid key's balance on 404 and
 * 405, a POST without its body, and a browser's preflight where no origin is allowed.
 */
import { expect } from 'vitest';
import { operations } from '../../generated/operations.ts';
import { missingBodyMessage } from '../../lib/request-body.ts';
import { MAX_REQUEST_HEAD_BYTES } from '../../lib/request-limits.ts';
import { contractOperations, resolve } from '../contract.ts';
import type { ContractCase } from './cases.ts';
import type { CallResult } from './valid-requests.ts';

const extract = contractOperations().find((operation) => operation.operationId === 'extractWebData')!;

function maxLengthOf(name: string): number {
  const parameter = ((extract.object.parameters as unknown[]).map((node) => resolve(node)) as { name: string; schema: unknown }[]).find((candidate) => candidate.name === name)!;
  return resolve<{ maxLength: number }>(parameter.schema).maxLength;
}

/** A JSON Schema of exactly `length` characters, nearly all of them 4-byte code points (each sent as `%F0%9F%98%80`). */
function schemaOfLength(length: number): string {
  const frame = JSON.stringify({ type: 'object', description: '' });
  return JSON.stringify({ type: 'object', description: '😀'.repeat(length - frame.length) });
}

const extractBase = { operation: extract, method: 'GET', path: '/web/extract' };
const accepted: ContractCase['expected'] = { status: 200, check: (answer) => expect(answer.body.credits_used).toBe(5) };

/** The four envelope headers of an answer made before the request was read: no key, nothing charged. */
function expectUnreadRequestHeaders(answer: CallResult): void {
  expect(answer.headers.get('X-Request-Id')).toBe(answer.body.request_id);
  expect([answer.headers.get('X-Credits-Used'), answer.headers.get('X-Credits-Remaining'), answer.headers.get('X-Cache')]).toEqual(['0', 'unknown', 'BYPASS']);
  expect([answer.body.platform, answer.body.credits_remaining]).toEqual(['unknown', null]);
}

const requestSizeCases: ContractCase[] = [
  {
    ...extractBase,
    name: 'web/extract with a prompt of 10,000 "Ü" (answered a bare 431)',
    query: { url: 'https://example.com/pricing', prompt: 'Ü'.repeat(maxLengthOf('prompt')) },
    expected: accepted,
  },
  {
    ...extractBase,
    name: 'web/extract with a prompt of 10,000 "😀", 12 characters each when percent-encoded',
    query: { url: 'https://example.com/pricing', prompt: '😀'.repeat(maxLengthOf('prompt')) },
    expected: accepted,
  },
  {
    ...extractBase,
    name: 'web/extract with a schema of 16,384 characters, nearly all "😀"',
    query: { url: 'https://example.com/pricing', schema: schemaOfLength(maxLengthOf('schema')) },
    expected: accepted,
  },
  {
    ...extractBase,
    name: 'a request line over the limit answers 422 request_too_large in the envelope with its four headers',
    query: { url: 'https://example.com/pricing', prompt: 'a'.repeat(MAX_REQUEST_HEAD_BYTES) },
    expected: { status: 422, code: 'request_too_large', messageIncludes: [`over ${MAX_REQUEST_HEAD_BYTES} bytes`], check: expectUnreadRequestHeaders },
  },
];

/** On the server the key's balance, on the mock its fixed 5000: a number, the same in the header. */
function expectBalance(answer: CallResult): void {
  expect(typeof answer.body.credits_remaining).toBe('number');
  expect(answer.headers.get('X-Credits-Remaining')).toBe(String(answer.body.credits_remaining));
}

const balanceCases: ContractCase[] = [
  { name: 'an unknown path with a valid key reports its balance (answered credits_remaining: null)', operation: null, method: 'GET', path: '/web/scrapes', expected: { status: 404, code: 'endpoint_not_found', check: expectBalance } },
  { name: 'a path outside /v1 with a valid key reports its balance', operation: null, method: 'GET', path: '/v2/web/scrape', rawPath: true, expected: { status: 404, code: 'endpoint_not_found', check: expectBalance } },
  { name: 'a wrong method with a valid key reports its balance (answered credits_remaining: null)', operation: null, method: 'DELETE', path: '/web/scrape', expected: { status: 405, code: 'method_not_allowed', check: expectBalance } },
  {
    name: 'an unknown path without a key reports no balance',
    operation: null,
    method: 'GET',
    path: '/web/scrapes',
    withoutKey: true,
    expected: { status: 404, code: 'endpoint_not_found', check: (answer) => expect([answer.body.credits_remaining, answer.headers.get('X-Credits-Remaining')]).toEqual([null, 'unknown']) },
  },
];

const contractOperationsById = new Map(contractOperations().map((operation) => [operation.operationId, operation]));

const missingBodyCases: ContractCase[] = operations
  .filter((operation) => operation.requestBody === 'required')
  .map((operation) => ({
    name: `${operation.operationId}: no body says a JSON body is required and names its fields (said body.body is required)`,
    operation: contractOperationsById.get(operation.operationId)!,
    method: operation.method,
    path: operation.path,
    expected: { status: 422, code: 'invalid_parameters', check: (answer: CallResult) => expect(answer.body.error.message).toBe(missingBodyMessage(operation)) },
  }));

const corsCases: ContractCase[] = [
  {
    name: 'a browser preflight, no origin allowed, answers 405 with Allow and no Access-Control header (the mock answered 204)',
    operation: null,
    method: 'OPTIONS',
    path: '/web/crawl',
    withoutKey: true,
    headers: { Origin: 'http://localhost:5173', 'Access-Control-Request-Method': 'POST' },
    expected: {
      status: 405,
      code: 'method_not_allowed',
      check: (answer) => {
        expect(answer.headers.get('Allow')).toBe('POST');
        expect([...answer.headers.keys()].filter((name) => name.startsWith('access-control-'))).toEqual([]);
      },
    },
  },
];

export const edgeCases: ContractCase[] = [...requestSizeCases, ...balanceCases, ...missingBodyCases, ...corsCases];
