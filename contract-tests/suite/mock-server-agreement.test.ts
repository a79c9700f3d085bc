/**
 * The mock refuses what the server refuses: every invalid case of the shared table that the mock
 * can hold (not the keys in a state, not the state only servers keep, not the mock's own `Prefer`
 * selections) is sent to the mock and to the sandbox server, and their status and `error.code`
 * must be the same.
 */
import { describe, expect, inject, it } from 'vitest';
import { contractCases, type ContractCase } from './cases.ts';
import { sendCase } from './send-case.ts';
import type { Call } from './valid-requests.ts';

const targets = inject('targets');
const mock = targets.find((target) => target.name === 'mock');
const server = targets.find((target) => target.name === 'server');

const refusedOnBoth = (testCase: ContractCase) =>
  testCase.expected.status >= 400 && testCase.expected.status < 500 && !testCase.keyRole && (!testCase.only || (testCase.only.includes('mock') && testCase.only.includes('server')));

const cases = contractCases.filter(refusedOnBoth);

describe.runIf(mock && server)('the mock refuses every request the sandbox server refuses, with the same status and error code', () => {
  it('holds every kind of refusal of the table: empty values, media types, cross-parameter rules', () => {
    expect(cases.length).toBeGreaterThan(100);
    for (const fragment of ['an empty Idempotency-Key', 'empty, below its minLength', 'labelled application/vnd.api+json', 'neither schema nor prompt']) {
      expect(cases.some((testCase) => testCase.name.includes(fragment)), fragment).toBe(true);
    }
  });

  it.concurrent.for(cases)('$name', async (testCase, { expect }) => {
    const answers = await Promise.all([mock!, server!].map(async (target) => {
      const call: Call = async ({ method, path, query, body, headers }) =>
        sendCase(target, { name: 'prepare', operation: null, method, path, query, body, headers, expected: { status: 200 } }, {});
      const pathParameters = testCase.prepare ? await testCase.prepare(call) : {};
      const answer = await sendCase(target, testCase, pathParameters);
      return { status: answer.status, code: answer.body.error?.code, message: answer.body.error?.message };
    }));
    const [onMock, onServer] = answers;
    expect([onMock!.status, onMock!.code], `mock: ${onMock!.message} / server: ${onServer!.message}`).toEqual([onServer!.status, onServer!.code]);
  });
});
