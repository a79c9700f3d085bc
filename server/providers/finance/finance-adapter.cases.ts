/**
 * The failure table every `finance/history` adapter's test runs, on a price history (the table
 * itself: test-support/upstream-failure-cases.ts).
 */
import { expectProviderFailure, type FailureCase } from '../../test-support/upstream-failure-cases.ts';
import type { DataProvider } from '../types.ts';

export { failureCases, TEST_LIMITS } from '../../test-support/upstream-failure-cases.ts';

/** Asserts how `provider` fails `AAPL` over a month while its fake upstream answers `failure.answer` (see expectProviderFailure). */
export async function expectHistoryFailure(provider: DataProvider, failure: FailureCase, secret: string): Promise<void> {
  await expectProviderFailure(provider, { operationId: 'getPriceHistory', query: { symbol: 'AAPL', interval: '1d', range: '1mo' } }, failure, secret);
}
