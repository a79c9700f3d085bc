import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { describeErrors, validatorAt } from '../../../contract-tests/contract.ts';
import { capturingLogger, json, startFakeUpstream, type FakeAnswer, type FakeUpstream } from '../../test-support/fake-upstream.ts';
import { expectHistoryFailure, failureCases, TEST_LIMITS } from '../finance/finance-adapter.cases.ts';
import { ProviderError, type DataProvider } from '../types.ts';
import { createYahooProvider, yahooConfig } from './index.ts';
import aapl from './fixtures/aapl-5d.json' with { type: 'json' };
import eurusd from './fixtures/eurusd-1mo.json' with { type: 'json' };
import withNullPoint from './fixtures/with-null-point.json' with { type: 'json' };
import notFound from './fixtures/not-found.json' with { type: 'json' };

const NOW = Date.parse('2026-10-10T12:00:00Z');
const validate = validatorAt('/components/schemas/PriceHistory');

let fake: FakeUpstream;
beforeAll(async () => { fake = await startFakeUpstream(); });
afterAll(async () => { await fake.close(); });

function provider(logger = pino({ level: 'silent' })): DataProvider {
  return createYahooProvider({ url: fake.baseUrl }, { logger, limits: TEST_LIMITS, now: () => NOW });
}

async function history(query: Record<string, unknown>, answer: FakeAnswer) {
  fake.answer = answer;
  fake.requests.length = 0;
  const data = await provider().fetch({ operationId: 'getPriceHistory', query, signal: new AbortController().signal });
  const valid = validate(data);
  expect(describeErrors(validate.errors), 'the answer is valid against PriceHistory').toEqual([]);
  expect(valid).toBe(true);
  const asked = fake.requests.map((request) => new URL(request.url, 'http://x'));
  return { data, asked: asked.map((url) => [url.pathname, Object.fromEntries(url.searchParams)]) };
}

const aaplPoints = [
  { timestamp: '2026-10-05T13:30:00Z', open: 247.12, high: 249.8, low: 245.93, close: 248.65, adjusted_close: 248.65, volume: 41237800 },
  { timestamp: '2026-10-06T13:30:00Z', open: 248.9, high: 251.34, low: 248.02, close: 250.77, adjusted_close: 250.77, volume: 38904100 },
  { timestamp: '2026-10-07T13:30:00Z', open: 250.4, high: 250.95, low: 246.18, close: 246.9, adjusted_close: 246.9, volume: 52118300 },
  { timestamp: '2026-10-08T13:30:00Z', open: 247.35, high: 249.12, low: 246.5, close: 248.31, adjusted_close: 248.31, volume: 35670200 },
  { timestamp: '2026-10-09T13:30:00Z', open: 248.6, high: 249.47, low: 247.81, close: 249.03, adjusted_close: 249.03, volume: 17482900 },
];

describe('the yahoo adapter', () => {
  it('asks GET /v8/finance/chart/AAPL?interval=1d&range=5d&events=div,splits and maps meta, timestamp[], quote[0] and adjclose[0] to every field', async () => {
    const { data, asked } = await history({ symbol: 'aapl', range: '5d' }, json(200, aapl));
    expect(asked).toEqual([['/v8/finance/chart/AAPL', { interval: '1d', range: '5d', events: 'div,splits' }]]);
    expect(data).toEqual({ symbol: 'AAPL', currency: 'USD', exchange: 'NMS', instrument_type: 'EQUITY', timezone: 'America/New_York', interval: '1d', points: aaplPoints });
  });

  it('a currency pair: the symbol escaped in the path, its volume of 0 (Yahoo reports none for pairs) null', async () => {
    const { data, asked } = await history({ symbol: 'EURUSD=X', interval: '1mo', range: '3mo' }, json(200, eurusd));
    expect(asked).toEqual([['/v8/finance/chart/EURUSD%3DX', { interval: '1mo', range: '3mo', events: 'div,splits' }]]);
    expect(data).toEqual({
      symbol: 'EURUSD=X', currency: 'USD', exchange: 'CCY', instrument_type: 'CURRENCY', timezone: 'Europe/London', interval: '1mo',
      points: [
        { timestamp: '2026-07-31T23:00:00Z', open: 1.1581, high: 1.1724, low: 1.1495, close: 1.1689, adjusted_close: 1.1689, volume: null },
        { timestamp: '2026-08-31T23:00:00Z', open: 1.1688, high: 1.1803, low: 1.1612, close: 1.1647, adjusted_close: 1.1647, volume: null },
        { timestamp: '2026-09-30T23:00:00Z', open: 1.1646, high: 1.1712, low: 1.1598, close: 1.1673, adjusted_close: 1.1673, volume: null },
      ],
    });
  });

  it('a point Yahoo sends as nulls stays, with null prices and volume (the contract: values the upstream does not provide are null)', async () => {
    const { data } = await history({ symbol: 'VOD.L', range: '5d' }, json(200, withNullPoint));
    expect((data as { points: unknown[] }).points).toEqual([
      { timestamp: '2026-10-05T08:00:00Z', open: 71.12, high: 72.3, low: 70.86, close: 71.98, adjusted_close: 71.98, volume: 48211034 },
      { timestamp: '2026-10-06T08:00:00Z', open: null, high: null, low: null, close: null, adjusted_close: null, volume: null },
      { timestamp: '2026-10-07T08:00:00Z', open: 72.04, high: 72.88, low: 71.5, close: 72.6, adjusted_close: 72.6, volume: 39120587 },
    ]);
    expect(data).toMatchObject({ symbol: 'VOD.L', currency: 'GBp', exchange: 'LSE' });
  });

  it('start and end become period1/period2 padded by the widest zone offsets; the points are cut to those dates in the exchange zone', async () => {
    const { data, asked } = await history({ symbol: 'AAPL', start: '2026-10-06', end: '2026-10-08' }, json(200, aapl));
    expect(asked).toEqual([['/v8/finance/chart/AAPL', {
      interval: '1d', period1: String(Date.parse('2026-10-06T00:00:00Z') / 1000 - 14 * 3600), period2: String(Date.parse('2026-10-09T12:00:00Z') / 1000), events: 'div,splits',
    }]]);
    expect((data as { points: unknown[] }).points).toEqual(aaplPoints.slice(1, 4));
  });

  it('start without end asks up to now (period2) and keeps every point from start', async () => {
    const { data, asked } = await history({ symbol: 'AAPL', start: '2026-10-07' }, json(200, aapl));
    expect(asked[0]![1]).toMatchObject({ period2: String(NOW / 1000) });
    expect((data as { points: unknown[] }).points).toEqual(aaplPoints.slice(2));
  });

  it('neither range nor start asks range=1mo', async () => {
    const { asked } = await history({ symbol: 'AAPL' }, json(200, aapl));
    expect(asked[0]![1]).toEqual({ interval: '1d', range: '1mo', events: 'div,splits' });
  });

  it('an unknown symbol (404 with chart.error {code: "Not Found"}) is 404 upstream_not_found', async () => {
    fake.answer = json(404, notFound);
    const error = await provider().fetch({ operationId: 'getPriceHistory', query: { symbol: 'NOSUCH' }, signal: new AbortController().signal }).catch((reason: unknown) => reason);
    expect(error).toMatchObject({ code: 'upstream_not_found', message: 'Yahoo Finance answered 404: not found.' });
  });

  it('chart.error {code: "Not Found"} in a 200 is 404 upstream_not_found too', async () => {
    fake.answer = json(200, notFound);
    const error = await provider().fetch({ operationId: 'getPriceHistory', query: { symbol: 'NOSUCH' }, signal: new AbortController().signal }).catch((reason: unknown) => reason);
    expect(error).toMatchObject({ code: 'upstream_not_found', message: 'Yahoo Finance found nothing by that name.' });
  });

  it.each([
    ['another chart.error in a 200', { chart: { result: null, error: { code: 'Bad Request', description: 'Invalid input' } } }, 'Yahoo Finance answered the error "Bad Request".'],
    ['JSON without chart.result', { chart: { result: [], error: null } }, 'Yahoo Finance answered JSON without chart.result.'],
    ['a chart without meta.exchangeTimezoneName', { chart: { result: [{ meta: { symbol: 'AAPL' }, timestamp: [] }], error: null } }, 'Yahoo Finance answered a chart without meta.exchangeTimezoneName.'],
  ])('%s is 502 upstream_failed', async (_name, body, message) => {
    fake.answer = json(200, body);
    const error = await provider().fetch({ operationId: 'getPriceHistory', query: { symbol: 'AAPL' }, signal: new AbortController().signal }).catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ code: 'upstream_failed', message });
  });

  it("Yahoo's 429 is 503 upstream_rate_limited with its Retry-After, logged for the operator", async () => {
    fake.answer = json(429, 'Too Many Requests\r\n', { 'content-type': 'text/plain', 'retry-after': '30' });
    const { logger, lines } = capturingLogger();
    const error = await provider(logger).fetch({ operationId: 'getPriceHistory', query: { symbol: 'AAPL' }, signal: new AbortController().signal }).catch((reason: unknown) => reason);
    expect(error).toMatchObject({ code: 'upstream_rate_limited', headers: { 'Retry-After': '30' } });
    expect(lines()).toContainEqual(expect.objectContaining({ provider: 'Yahoo Finance', status: 429, retryAfter: 30, msg: 'upstream throttles this service' }));
  });

  it('never more than maxInFlight calls to Yahoo at once', async () => {
    fake.answer = (request, response) => new Promise((resolve) => setTimeout(() => { json(200, aapl)(request, response); resolve(); }, 50));
    fake.requests.length = 0;
    const adapter = provider();
    const before = fake.maxInFlight();
    await Promise.all(Array.from({ length: 6 }, () => adapter.fetch({ operationId: 'getPriceHistory', query: { symbol: 'AAPL' }, signal: new AbortController().signal })));
    expect(fake.requests).toHaveLength(6);
    expect(Math.max(before, fake.maxInFlight())).toBeLessThanOrEqual(TEST_LIMITS.maxInFlight);
  });

  describe('the failure table', () => {
    it.each(failureCases('Yahoo Finance', { headers: { 'retry-after': '7' }, retryAfter: '7' }))('$name', async (failure) => {
      fake.answer = failure.answer;
      await expectHistoryFailure(provider(), failure, fake.baseUrl);
    });
  });

  describe('YAHOO_FINANCE_URL', () => {
    it.each([
      [{}, {}, null],
      [{ YAHOO_FINANCE_URL: 'http://127.0.0.1:9100/' }, {}, { url: 'http://127.0.0.1:9100' }],
      [{}, { getPriceHistory: 'yahoo' }, { url: 'https://query1.finance.yahoo.com' }],
    ])('%j with routes %j reads as %j', (env, routes, expected) => {
      expect(yahooConfig(env, routes)).toEqual(expected);
    });
    it('a value that is not an http(s) URL stops start-up naming it', () => {
      expect(() => yahooConfig({ YAHOO_FINANCE_URL: 'query1.finance.yahoo.com' }, {})).toThrow(/YAHOO_FINANCE_URL must be an http\(s\) URL/);
    });
  });
});
