import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { describeErrors, validatorAt } from '../../../contract-tests/contract.ts';
import { ConfigError } from '../../config.ts';
import { capturingLogger, json, startFakeUpstream, type FakeAnswer, type FakeUpstream } from '../../test-support/fake-upstream.ts';
import { expectHistoryFailure, failureCases, TEST_LIMITS } from '../finance/finance-adapter.cases.ts';
import type { DataProvider } from '../types.ts';
import { createTwelveDataProvider, twelveDataConfig, twelveDataSymbol } from './index.ts';
import aaplDaily from './fixtures/aapl-1day.json' with { type: 'json' };
import aaplMonthly from './fixtures/aapl-1month.json' with { type: 'json' };
import btcWeekly from './fixtures/btcusd-1week.json' with { type: 'json' };
import symbolNotFound from './fixtures/symbol-not-found.json' with { type: 'json' };
import noData from './fixtures/no-data.json' with { type: 'json' };
import outOfCredits from './fixtures/out-of-credits.json' with { type: 'json' };
import badKey from './fixtures/bad-key.json' with { type: 'json' };
import badInterval from './fixtures/bad-interval.json' with { type: 'json' };

const KEY = 'td0000000000000000000000000000test';
const NOW = Date.parse('2026-10-10T12:00:00Z');
const validate = validatorAt('/components/schemas/PriceHistory');

let fake: FakeUpstream;
beforeAll(async () => { fake = await startFakeUpstream(); });
afterAll(async () => { await fake.close(); });

function provider(logger = pino({ level: 'silent' })): DataProvider {
  return createTwelveDataProvider({ url: fake.baseUrl, apiKey: KEY }, { logger, limits: TEST_LIMITS, now: () => NOW });
}

function ask(query: Record<string, unknown>, logger = pino({ level: 'silent' })) {
  return provider(logger).fetch({ operationId: 'getPriceHistory', query, signal: new AbortController().signal });
}

async function history(query: Record<string, unknown>, answer: FakeAnswer) {
  fake.answer = answer;
  fake.requests.length = 0;
  const data = await ask(query);
  const valid = validate(data);
  expect(describeErrors(validate.errors), 'the answer is valid against PriceHistory').toEqual([]);
  expect(valid).toBe(true);
  const asked = fake.requests.map((request) => new URL(request.url, 'http://x'));
  return { data: data as { points: unknown[] }, asked: asked.map((url) => [url.pathname, Object.fromEntries(url.searchParams)]) };
}

const aaplPoints = [
  { timestamp: '2026-10-05T04:00:00Z', open: 247.12, high: 249.8, low: 245.93, close: 248.65, adjusted_close: null, volume: 41237800 },
  { timestamp: '2026-10-06T04:00:00Z', open: 248.9, high: 251.34, low: 248.02, close: 250.77, adjusted_close: null, volume: 38904100 },
  { timestamp: '2026-10-07T04:00:00Z', open: 250.4, high: 250.95, low: 246.18, close: 246.9, adjusted_close: null, volume: 52118300 },
  { timestamp: '2026-10-08T04:00:00Z', open: 247.35, high: 249.12, low: 246.5, close: 248.31, adjusted_close: null, volume: 35670200 },
  { timestamp: '2026-10-09T04:00:00Z', open: 248.6, high: 249.47, low: 247.81, close: 249.03, adjusted_close: null, volume: 17482900 },
];

describe('the twelvedata adapter', () => {
  it('asks GET /time_series?symbol=&interval=1day&start_date=&outputsize=5000&apikey= and maps meta and values[] (strings, newest first) to every field, oldest first', async () => {
    const { data, asked } = await history({ symbol: 'AAPL', range: '1mo' }, json(200, aaplDaily));
    expect(asked).toEqual([['/time_series', { symbol: 'AAPL', interval: '1day', start_date: '2026-09-10', outputsize: '5000', apikey: KEY }]]);
    expect(data).toEqual({ symbol: 'AAPL', currency: 'USD', exchange: 'NASDAQ', instrument_type: 'Common Stock', timezone: 'America/New_York', interval: '1d', points: aaplPoints });
  });

  it('start and end: start_date, end_date the day after (points after end are dropped), a weekly cryptocurrency in its notation BTC/USD with the quote currency, no volume', async () => {
    const { data, asked } = await history({ symbol: 'BTC-USD', interval: '1wk', start: '2026-08-31', end: '2026-09-27' }, json(200, btcWeekly));
    expect(asked).toEqual([['/time_series', { symbol: 'BTC/USD', interval: '1week', start_date: '2026-08-31', end_date: '2026-09-28', outputsize: '5000', apikey: KEY }]]);
    expect(data).toEqual({
      symbol: 'BTC/USD', currency: 'USD', exchange: 'Coinbase Pro', instrument_type: 'Digital Currency', timezone: 'UTC', interval: '1wk',
      points: [
        { timestamp: '2026-08-31T00:00:00Z', open: 108412.55, high: 112960.1, low: 107205.31, close: 111874.02, adjusted_close: null, volume: null },
        { timestamp: '2026-09-07T00:00:00Z', open: 111874.9, high: 115230.77, low: 110118.4, close: 114502.63, adjusted_close: null, volume: null },
        { timestamp: '2026-09-14T00:00:00Z', open: 114498.12, high: 116047.88, low: 109876.25, close: 110934.7, adjusted_close: null, volume: null },
        { timestamp: '2026-09-21T00:00:00Z', open: 110930.04, high: 113455.6, low: 108702.93, close: 112688.19, adjusted_close: null, volume: null },
      ],
    });
  });

  it('daily points outside start..end in the answer are dropped', async () => {
    const { data } = await history({ symbol: 'AAPL', start: '2026-10-06', end: '2026-10-08' }, json(200, aaplDaily));
    expect(data.points).toEqual(aaplPoints.slice(1, 4));
  });

  it('interval 5d (Twelve Data has none): its daily bars in runs of 5 from the oldest, first open, highest high, lowest low, last close, volumes summed', async () => {
    const { data, asked } = await history({ symbol: 'AAPL', interval: '5d', range: '1mo' }, json(200, aaplDaily));
    expect(asked[0]![1]).toMatchObject({ interval: '1day' });
    expect(data.points).toEqual([{ timestamp: '2026-10-05T04:00:00Z', open: 247.12, high: 251.34, low: 245.93, close: 249.03, adjusted_close: null, volume: 185413300 }]);
  });

  it('interval 3mo (Twelve Data has none): its monthly bars grouped by calendar quarter', async () => {
    const { data, asked } = await history({ symbol: 'AAPL', interval: '3mo', range: '6mo' }, json(200, aaplMonthly));
    expect(asked[0]![1]).toMatchObject({ interval: '1month', start_date: '2026-04-10' });
    expect(data.points).toEqual([
      { timestamp: '2026-06-01T04:00:00Z', open: 209.84, high: 216.32, low: 205.11, close: 213.97, adjusted_close: null, volume: 1187402100 },
      { timestamp: '2026-07-01T04:00:00Z', open: 214.1, high: 247.8, low: 212.04, close: 246.42, adjusted_close: null, volume: 3115061900 },
    ]);
  });

  it('range max sends no start_date (the newest 5000 bars); ytd starts on 1 January', async () => {
    expect((await history({ symbol: 'AAPL', range: 'max' }, json(200, aaplDaily))).asked[0]![1]).not.toHaveProperty('start_date');
    expect((await history({ symbol: 'AAPL', range: 'ytd' }, json(200, aaplDaily))).asked[0]![1]).toMatchObject({ start_date: '2026-01-01' });
  });

  it('"No data is available on the specified dates" (code 400 in a 200) is an empty points list, not an error', async () => {
    const { data } = await history({ symbol: 'AAPL', start: '2026-10-10' }, json(200, noData));
    expect(data).toEqual({ symbol: 'AAPL', currency: 'USD', exchange: 'NASDAQ', instrument_type: 'Common Stock', timezone: 'America/New_York', interval: '1d', points: [] });
  });

  it.each([
    ['an unknown symbol (code 400 "**symbol** not found" in a 200)', symbolNotFound, {}, { code: 'upstream_not_found', message: 'Twelve Data found nothing by that name.' }],
    ['code 404 in a 200', { code: 404, message: 'Not found', status: 'error' }, {}, { code: 'upstream_not_found', message: 'Twelve Data found nothing by that name.' }],
    ['out of API credits (code 429 in a 200)', outOfCredits, {}, { code: 'upstream_rate_limited', message: 'Twelve Data throttles this service (it answered 429); retry later. No credits were used.', headers: {} }],
    ['code 429 in a 200 with a Retry-After header', outOfCredits, { 'retry-after': '42' }, { code: 'upstream_rate_limited', headers: { 'Retry-After': '42' } }],
    ['a bad key (code 401 in a 200)', badKey, {}, { code: 'provider_unavailable' }],
    ['another code 400 in a 200', badInterval, {}, { code: 'upstream_rejected', message: 'Twelve Data rejected the request (it answered 400).' }],
    ['code 500 in a 200', { code: 500, message: 'Internal error', status: 'error' }, {}, { code: 'upstream_failed', message: 'Twelve Data answered 500.' }],
    ['status ok without values', { meta: { symbol: 'AAPL', exchange_timezone: 'America/New_York' }, status: 'ok' }, {}, { code: 'upstream_failed', message: 'Twelve Data answered JSON without a values list.' }],
    ['values without meta.exchange_timezone', { meta: { symbol: 'AAPL' }, values: [], status: 'ok' }, {}, { code: 'upstream_failed', message: 'Twelve Data answered a time series without meta.exchange_timezone.' }],
  ])('%s', async (_name, body, headers, expected) => {
    fake.answer = json(200, body, headers);
    const error = await ask({ symbol: 'NOSUCH' }).catch((reason: unknown) => reason);
    expect(error).toMatchObject(expected);
    expect((error as Error).message).not.toContain(KEY);
  });

  it('a refused key is logged at error level for the operator, without the key', async () => {
    fake.answer = json(200, badKey);
    const { logger, lines, text } = capturingLogger();
    await ask({ symbol: 'AAPL' }, logger).catch(() => undefined);
    expect(lines()).toContainEqual(expect.objectContaining({ level: 50, provider: 'Twelve Data', status: 401 }));
    expect(text()).not.toContain(KEY);
  });

  it.each([['BTC-USD', 'BTC/USD'], ['EURUSD=X', 'EUR/USD'], ['AAPL', 'AAPL'], ['BRK-B', 'BRK-B'], ['VOD.L', 'VOD.L']])('the symbol %s is sent as %s', (symbol, sent) => {
    expect(twelveDataSymbol(symbol)).toBe(sent);
  });

  describe('the failure table', () => {
    it.each(failureCases('Twelve Data', { headers: { 'retry-after': '7' }, retryAfter: '7' }))('$name', async (failure) => {
      fake.answer = failure.answer;
      await expectHistoryFailure(provider(), failure, KEY);
    });
  });

  describe('TWELVEDATA_API_KEY, TWELVEDATA_URL', () => {
    it.each([
      [{}, null],
      [{ TWELVEDATA_API_KEY: 'abc123' }, { url: 'https://api.twelvedata.com', apiKey: 'abc123' }],
      [{ TWELVEDATA_API_KEY: 'abc123', TWELVEDATA_URL: 'http://127.0.0.1:9200/' }, { url: 'http://127.0.0.1:9200', apiKey: 'abc123' }],
    ])('%j reads as %j', (env, expected) => {
      expect(twelveDataConfig(env)).toEqual(expected);
    });
    it.each([
      [{ TWELVEDATA_URL: 'http://127.0.0.1:9200' }, 'TWELVEDATA_URL is set but TWELVEDATA_API_KEY is not'],
      [{ TWELVEDATA_API_KEY: 'abc 123' }, 'TWELVEDATA_API_KEY must be one API key without spaces or line breaks'],
    ])('%j stops start-up: %s', (env, message) => {
      expect(() => twelveDataConfig(env)).toThrow(ConfigError);
      expect(() => twelveDataConfig(env)).toThrow(message);
    });
  });
});
