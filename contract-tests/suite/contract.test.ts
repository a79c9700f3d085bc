/**
 * Runs the one table of contract cases against every target the global setup started, and checks
 * each answer against the bundled contract. Asserts in a fixed order: status, conformance of
 * body and headers, error code and message, then what the case adds.
 */
import { afterAll, describe, expect, inject, it } from 'vitest';
import { contractCases, type ContractCase } from './cases.ts';
import { contractMismatches } from './conformance.ts';
import { Coverage } from './coverage.ts';
import { sendCase } from './send-case.ts';
import type { Call, OperationId } from './valid-requests.ts';

const targets = inject('targets');

describe.each(targets)('contract on $name', (target) => {
  const { name, unavailable } = target;
  const coverage = new Coverage(unavailable);
  const available = (testCase: ContractCase) => !testCase.needsProvider || !unavailable.includes(testCase.operation?.operationId as OperationId);
  const cases = contractCases.filter((testCase) => (!testCase.only || testCase.only.includes(name)) && (!testCase.keyRole || target.keys[testCase.keyRole]) && available(testCase));

  const call: Call = async ({ method, path, query, body, headers }) =>
    sendCase(target, { name: 'prepare', operation: null, method, path, query, body, headers, expected: { status: 200 } }, {});

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
    const answer = await sendCase(target, testCase, pathParameters);

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
