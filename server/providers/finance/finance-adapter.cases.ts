/**
 * The shared failure table (search/search-adapter.cases.ts) run against a `finance/history`
 * adapter: the same rows, asked as a price history.
 */
import { expect } from 'vitest';
import { errorCatalog } from '../../../generated/errors.ts';
import type { FailureCase } from '../search/search-adapter.cases.ts';
import { ProviderError, type DataProvider } from '../types.ts';

export { failureCases, TEST_LIMITS } from '../search/search-adapter.cases.ts';

/** Asserts how `provider` fails `AAPL` over a month while its fake upstream answers `failure.answer`; never `secret` in the message. */
export async function expectHistoryFailure(provider: DataProvider, failure: FailureCase, secret: string): Promise<void> {
  const error = await provider.fetch({ operationId: 'getPriceHistory', query: { symbol: 'AAPL', interval: '1d', range: '1mo' }, signal: new AbortController().signal }).catch((reason: unknown) => reason);
  expect(error).toBeInstanceOf(ProviderError);
  const { code, message, headers } = error as ProviderError;
  expect([errorCatalog[code].status, code, message]).toEqual([failure.status, failure.code, failure.message]);
  if (failure.headers) expect(headers).toEqual(failure.headers);
  expect(message).not.toContain(secret);
}
