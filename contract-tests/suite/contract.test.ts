/**
 * Runs the one table of contract cases against every target the global setup started, and checks
 * each answer against the bundled contract. Asserts in a fixed order: status, conformance of
 * body and headers, error code and message, then what the case adds.
 */
import { afterAll, describe, expect, inject, it } from 'vitest';
import { contractCases, type ContractCase } from './cases.ts';
import { contractMismatches } from './conformance.ts';
import { Coverage } from './coverage.ts';
import { CASE_SITE_ORIGIN, type KeyRole } from './targets.ts';
import type { Call, CallResult, OperationId } from './valid-requests.ts';

function fillPath(path: string, parameters: Record<string, string>): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(parameters[name] ?? `missing-${name}`));
}

/** The value with every URL on CASE_SITE_ORIGIN moved to `siteOrigin`, the site the target fetches. */
function onSite<T>(value: T, siteOrigin: string): T {
  if (siteOrigin === CASE_SITE_ORIGIN) return value;
  if (typeof value === 'string') return (value.startsWith(CASE_SITE_ORIGIN) ? siteOrigin + value.slice(CASE_SITE_ORIGIN.length) : value) as T;
  if (Array.isArray(value)) return value.map((item) => onSite(item, siteOrigin)) as T;
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, onSite(item, siteOrigin)])) as T;
  return value;
}

interface Target {
  baseUrl: string;
  apiKey: string;
  siteOrigin: string;
  keys: Partial<Record<KeyRole, string>>;
}

async function send({ baseUrl, apiKey, siteOrigin, keys }: Target, testCase: ContractCase, pathParameters: Record<string, string>): Promise<CallResult & { contentType: string }> {
  const origin = new URL(baseUrl).origin;
  const url = new URL(testCase.rawPath ? `${origin}${testCase.path}` : `${baseUrl}${fillPath(testCase.path, pathParameters)}`);
  for (const [name, value] of Object.entries(onSite(testCase.query ?? {}, siteOrigin))) url.searchParams.set(name, value);
  const headers = new Headers(testCase.headers);
  if (!testCase.withoutKey) headers.set('x-api-key', testCase.keyRole ? keys[testCase.keyRole]! : apiKey);
  let body: string | undefined;
  if (testCase.rawBody) {
    body = testCase.rawBody.text;
    headers.set('content-type', testCase.rawBody.contentType);
  } else if (testCase.body !== undefined && testCase.method !== 'GET') {
    body = JSON.stringify(onSite(testCase.body, siteOrigin));
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

describe.each(targets)('contract on $name', (target) => {
  const { name, unavailable } = target;
  const coverage = new Coverage(unavailable);
  const available = (testCase: ContractCase) => !testCase.needsProvider || !unavailable.includes(testCase.operation?.operationId as OperationId);
  const cases = contractCases.filter((testCase) => (!testCase.only || testCase.only.includes(name)) && (!testCase.keyRole || target.keys[testCase.keyRole]) && available(testCase));

  const call: Call = async ({ method, path, query, body, headers }) =>
    send(target, { name: 'prepare', operation: null, method, path, query, body, headers, expected: { status: 200 } }, {});

  /**
   * What the case expects here: a valid request to an operation without a provider on this target
   * answers 503, uncharged, before any charge, so a key without credits gets the 503 too.
   */
  function expectationOf(testCase: ContractCase): ContractCase['expected'] {
    const reachesProvider = testCase.expected.status === 200 || testCase.keyRole === 'noCredits';
    if (!testCase.operation || !unavailable.includes(testCase.operation.operationId as OperationId) || !reachesProvider) return testCase.expected;
    return { status: 503, code: 'provider_unavailable', messageIncludes: ['no credits were used'], check: (answer) => expect(answer.body.credits_used).toBe(0) };
  }

  // Cases are independent: they run concurrently (vitest's maxConcurrency), the coverage check after them all.
  it.concurrent.for(cases)('$name', async (testCase, { expect }) => {
    const expected = expectationOf(testCase);
    const pathParameters = testCase.prepare ? await testCase.prepare(call) : {};
    const answer = await send(target, testCase, pathParameters);

    const context = `${testCase.name} on ${name}: ${JSON.stringify(answer.body).slice(0, 600)}`;
    expect(answer.status, context).toBe(expected.status);
    expect(contractMismatches(testCase.operation, answer), context).toEqual([]);
    if (expected.code) expect(answer.body.error?.code, context).toBe(expected.code);
    if (answer.body.error) expect(answer.body.error.doc_url, context).toBe(`${new URL(target.baseUrl).origin}/docs#section/${answer.body.error.code}`);
    for (const fragment of expected.messageIncludes ?? []) expect(answer.body.error?.message, context).toContain(fragment);
    expected.check?.(answer);

    if (testCase.operation) coverage.record(testCase.operation.operationId, answer.status);
  });

  it('exercised a success case and an error case of every operation', () => {
    expect(coverage.gaps()).toEqual([]);
  });

  afterAll(() => {
    console.log(coverage.report(name));
  });
});
