/**
 * The failure table every upstream adapter's test runs (issue 10, section 4): not found, throttled
 * with the upstream's own rate headers, refused credentials, failures, HTML with 200, malformed
 * JSON, an answer past the time bound, an oversized answer. Only the upstream's name and its rate
 * headers differ between adapters; `expectProviderFailure` runs one case on any operation.
 */
import { expect } from 'vitest';
import { errorCatalog } from '../../generated/errors.ts';
import { ProviderError, type DataProvider, type ProviderCall } from '../providers/types.ts';
import { html, json, oversized, slow, type FakeAnswer } from './fake-upstream.ts';

/**
 * The time and size bounds the adapters' tests give their client. The time bound leaves a busy machine
 * room: at 300 ms, prompt answers (a 400, the queued calls of the maxInFlight test) timed out when the
 * load average reached 10-13 on 2 cores.
 */
export const TEST_LIMITS = { timeoutMs: 1000, maxResponseBytes: 64 * 1024, maxInFlight: 2 };

export interface FailureCase {
  name: string;
  answer: FakeAnswer;
  code: string;
  status: number;
  message: string;
  headers?: Record<string, string>;
}

/** `rate`: the headers this upstream sends with its 429 (or an answer that sends them), and the Retry-After they give. */
export function failureCases(provider: string, rate: { headers: Record<string, string>; retryAfter: string } | { answer: FakeAnswer; retryAfter: string }): FailureCase[] {
  const throttled = 'answer' in rate ? rate.answer : json(429, { error: 'Too Many Requests' }, rate.headers);
  return [
    { name: 'not found (404) is 404 upstream_not_found', answer: json(404, { error: 'Not Found' }), code: 'upstream_not_found', status: 404, message: `${provider} answered 404: not found.` },
    { name: "429 with the upstream's rate headers is 503 upstream_rate_limited with its Retry-After", answer: throttled, code: 'upstream_rate_limited', status: 503, message: `${provider} throttles this service (it answered 429); retry in ${rate.retryAfter} second${rate.retryAfter === '1' ? '' : 's'}. No credits were used.`, headers: { 'Retry-After': rate.retryAfter } },
    { name: '401 is 503 provider_unavailable', answer: json(401, { error: 'Unauthorized' }), code: 'provider_unavailable', status: 503, message: `${provider} refuses this service's credential (it answered 401); no provider is available until the operator fixes it. No credits were used.` },
    { name: '403 is 503 provider_unavailable', answer: json(403, { error: 'Forbidden' }), code: 'provider_unavailable', status: 503, message: `${provider} refuses this service's credential (it answered 403); no provider is available until the operator fixes it. No credits were used.` },
    { name: '400 is 400 upstream_rejected', answer: json(400, { error: 'Bad Request' }), code: 'upstream_rejected', status: 400, message: `${provider} rejected the request (it answered 400).` },
    { name: '500 is 502 upstream_failed', answer: json(500, { error: 'Internal Server Error' }), code: 'upstream_failed', status: 502, message: `${provider} answered 500.` },
    { name: 'HTML with 200 is 502 upstream_failed', answer: html(), code: 'upstream_failed', status: 502, message: `${provider} answered HTML instead of JSON.` },
    { name: 'malformed JSON is 502 upstream_failed', answer: json(200, '{"results": [{"url": "https://a.example/"'), code: 'upstream_failed', status: 502, message: `${provider} answered a body that is not JSON.` },
    { name: 'an answer past the time bound is 504 upstream_timeout', answer: slow(TEST_LIMITS.timeoutMs * 2.5), code: 'upstream_timeout', status: 504, message: `${provider} did not answer within ${TEST_LIMITS.timeoutMs} ms.` },
    { name: 'an oversized answer is 502 upstream_failed', answer: oversized(TEST_LIMITS.maxResponseBytes * 2), code: 'upstream_failed', status: 502, message: `${provider} answered more than ${TEST_LIMITS.maxResponseBytes} bytes.` },
  ];
}

/**
 * Asserts how `provider` fails `call` while its fake upstream answers `failure.answer`: the
 * ProviderError's status, code, message and headers, and never `secret` (its key or address) in the message.
 */
export async function expectProviderFailure(provider: DataProvider, call: Omit<ProviderCall, 'signal'>, failure: FailureCase, secret: string): Promise<void> {
  const error = await provider.fetch({ ...call, signal: new AbortController().signal }).catch((reason: unknown) => reason);
  expect(error).toBeInstanceOf(ProviderError);
  const { code, message, headers } = error as ProviderError;
  expect([errorCatalog[code].status, code, message]).toEqual([failure.status, failure.code, failure.message]);
  if (failure.headers) expect(headers).toEqual(failure.headers);
  expect(message).not.toContain(secret);
}
