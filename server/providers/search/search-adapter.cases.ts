/**
 * The failure table every search adapter's test runs, on a search (the table itself:
 * test-support/upstream-failure-cases.ts).
 */
import type { DataProvider } from '../types.ts';
import { expectProviderFailure, type FailureCase } from '../../test-support/upstream-failure-cases.ts';

export { failureCases, TEST_LIMITS, type FailureCase } from '../../test-support/upstream-failure-cases.ts';

/** Asserts how `provider` fails a search while its fake upstream answers `failure.answer` (see expectProviderFailure). */
export async function expectSearchFailure(provider: DataProvider, failure: FailureCase, secret: string): Promise<void> {
  await expectProviderFailure(provider, { operationId: 'searchWeb', query: { query: 'electric ferry' } }, failure, secret);
}
