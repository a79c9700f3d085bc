import { describe, expect, it } from 'vitest';
import pino from 'pino';
import { retryAfterSeconds, upstreamFailure } from './upstream-failure.ts';

const NOW = Date.parse('2026-11-23T18:00:00Z');

describe('retryAfterSeconds', () => {
  const cases: { name: string; headers: Record<string, string>; seconds: number | undefined }[] = [
    { name: 'Retry-After in seconds', headers: { 'Retry-After': '30' }, seconds: 30 },
    { name: 'Retry-After as an HTTP date', headers: { 'retry-after': 'Mon, 23 Nov 2026 18:01:30 GMT' }, seconds: 90 },
    { name: 'Retry-After wins over the reset headers', headers: { 'retry-after': '5', 'x-ratelimit-reset': '100' }, seconds: 5 },
    { name: 'x-ratelimit-reset in seconds', headers: { 'x-ratelimit-reset': '42' }, seconds: 42 },
    { name: 'x-ratelimit-reset in epoch seconds', headers: { 'x-ratelimit-reset': String(NOW / 1000 + 75) }, seconds: 75 },
    { name: "X's x-rate-limit-reset in epoch seconds (its x-rate-limit-remaining at 0)", headers: { 'x-rate-limit-limit': '900', 'x-rate-limit-remaining': '0', 'x-rate-limit-reset': String(NOW / 1000 + 412) }, seconds: 412 },
    { name: "Brave's per-window lists: the window whose remaining is 0", headers: { 'x-ratelimit-remaining': '14990, 0', 'x-ratelimit-reset': '1, 1419704' }, seconds: 1419704 },
    { name: "Brave's lists with no window at 0: the longest reset", headers: { 'x-ratelimit-reset': '1, 3600' }, seconds: 3600 },
    { name: "OpenAI's exhausted tokens: 1m30.5s", headers: { 'x-ratelimit-remaining-requests': '10', 'x-ratelimit-reset-requests': '1s', 'x-ratelimit-remaining-tokens': '0', 'x-ratelimit-reset-tokens': '1m30.5s' }, seconds: 91 },
    { name: 'a reset under a second is at least 1', headers: { 'x-ratelimit-reset-requests': '20ms' }, seconds: 1 },
    { name: 'a Retry-After of 0 is at least 1', headers: { 'retry-after': '0' }, seconds: 1 },
    { name: 'nothing said: undefined, never invented', headers: {}, seconds: undefined },
    { name: 'an unreadable reset: undefined', headers: { 'x-ratelimit-reset': 'soon' }, seconds: undefined },
  ];
  it.each(cases)('$name', ({ headers, seconds }) => {
    expect(retryAfterSeconds(headers, NOW)).toBe(seconds);
  });
});

describe('upstreamFailure', () => {
  it('a 200 whose body says the thing does not exist is 404 upstream_not_found', () => {
    const error = upstreamFailure('Fake Search', { kind: 'not_found' }, pino({ level: 'silent' }));
    expect([error.code, error.message]).toEqual(['upstream_not_found', 'Fake Search found nothing by that name.']);
  });

  it('an answer the adapter cannot read (an empty answer with unresponsive engines) is 502 upstream_failed naming the problem', () => {
    const error = upstreamFailure('SearXNG', { kind: 'unreadable', what: 'no results, and its engines google, bing did not respond' }, pino({ level: 'silent' }));
    expect([error.code, error.message]).toEqual(['upstream_failed', 'SearXNG answered no results, and its engines google, bing did not respond.']);
  });
});
