/**
 * Runs the one table of contract cases against every target the global setup started, and checks
 * each answer against the bundled contract. Asserts in a fixed order: status, conformance of
 * body and headers, error code and message, then what the case adds.
 */
import { afterAll, describe, expect, inject, it } from 'vitest';
import { contractCases, type ContractCase } from './cases.ts';
import { contractMismatches } from './conformance.ts';
import { Coverage } from './coverage.ts';
import type { Call, CallResult } from './valid-requests.ts';

function fillPath(path: string, parameters: Record<string, string>): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(parameters[name] ?? `missing-${name}`));
}

async function send(baseUrl: string, apiKey: string, testCase: ContractCase, pathParameters: Record<string, string>): Promise<CallResult & { contentType: string }> {
  const origin = new URL(baseUrl).origin;
  const url = new URL(testCase.rawPath ? `${origin}${testCase.path}` : `${baseUrl}${fillPath(testCase.path, pathParameters)}`);
  for (const [name, value] of Object.entries(testCase.query ?? {})) url.searchParams.set(name, value);
  const headers = new Headers(testCase.headers);
  if (!testCase.withoutKey) headers.set('x-api-key', apiKey);
  let body: string | undefined;
  if (testCase.rawBody) {
    body = testCase.rawBody.text;
    headers.set('content-type', testCase.rawBody.contentType);
  } else if (testCase.body !== undefined && testCase.method !== 'GET') {
    body = JSON.stringify(testCase.body);
    headers.set('content-type', 'application/json');
  }
  const response = await fetch(url, { method: testCase.method, headers, body });
  const text = await response.text();
  let parsed: Record<string, any>;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = { unparsable_body: text };
  }
  return { status: response.status, body: parsed, headers: response.headers, contentType: response.headers.get('content-type') ?? '' };
}

const targets = inject('targets');

describe.each(targets)('contract on $name', ({ name, baseUrl, apiKey }) => {
  const coverage = new Coverage();
  const cases = contractCases.filter((testCase) => !testCase.only || testCase.only.includes(name));

  const call: Call = async ({ method, path, query, body }) =>
    send(baseUrl, apiKey, { name: 'prepare', operation: null, method, path, query, body, expected: { status: 200 } }, {});

  // Cases are independent: they run concurrently (vitest's maxConcurrency), the coverage check after them all.
  it.concurrent.for(cases)('$name', async (testCase, { expect }) => {
    const pathParameters = testCase.prepare ? await testCase.prepare(call) : {};
    const answer = await send(baseUrl, apiKey, testCase, pathParameters);

    const context = `${testCase.name} on ${name}: ${JSON.stringify(answer.body).slice(0, 600)}`;
    expect(answer.status, context).toBe(testCase.expected.status);
    expect(contractMismatches(testCase.operation, answer), context).toEqual([]);
    if (testCase.expected.code) expect(answer.body.error?.code, context).toBe(testCase.expected.code);
    for (const fragment of testCase.expected.messageIncludes ?? []) expect(answer.body.error?.message, context).toContain(fragment);
    testCase.expected.check?.(answer);

    if (testCase.operation) coverage.record(testCase.operation.operationId, answer.status);
  });

  it('exercised a success case and an error case of every operation', () => {
    expect(coverage.gaps()).toEqual([]);
  });

  afterAll(() => {
    console.log(coverage.report(name));
  });
});
