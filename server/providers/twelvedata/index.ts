/**
 * `finance/history` on Twelve Data's time series:
 * `GET {TWELVEDATA_URL}/time_series?symbol=…&interval=…&start_date=…&end_date=…&outputsize=5000&apikey=…`.
 * Twelve Data has no 5-day or quarterly bars: `5d` and `3mo` are made from its daily and monthly
 * bars (runs of 5 trading days from the oldest; calendar quarters), its own values only.
 */
import type { Logger } from 'pino';
import { UpstreamClient, type UpstreamClientConfig } from '../../upstream/upstream-client.ts';
import { upstreamFailure } from '../../upstream/upstream-failure.ts';
import {
  addDays, historyRequest, isoSeconds, rangeStart, startOfLocalDay, type HistoryRequest, type PriceHistory, type PriceInterval, type PricePoint,
} from '../finance/history-request.ts';
import type { DataProvider, ProviderCall } from '../types.ts';
import type { TwelveDataConfig } from './config.ts';

export { twelveDataConfig, TWELVEDATA_DEFAULT_URL, type TwelveDataConfig } from './config.ts';

export const TWELVEDATA_NAME = 'Twelve Data';
const DEFAULT_LIMITS = { timeoutMs: 15_000, maxResponseBytes: 10 * 1024 * 1024, maxInFlight: 4 };
/** Twelve Data's most points per answer (its default is 30). */
const OUTPUT_SIZE = 5000;

/** The contract's interval → Twelve Data's, and how many of its bars make one point (`quarter`: calendar quarters of months). */
const INTERVALS: Record<PriceInterval, { interval: string; group: number | 'quarter' }> = {
  '1d': { interval: '1day', group: 1 },
  '5d': { interval: '1day', group: 5 },
  '1wk': { interval: '1week', group: 1 },
  '1mo': { interval: '1month', group: 1 },
  '3mo': { interval: '1month', group: 'quarter' },
};

export interface TwelveDataDeps {
  logger: Logger;
  limits?: Partial<Pick<UpstreamClientConfig, 'timeoutMs' | 'maxResponseBytes' | 'maxInFlight'>>;
  now?: () => number;
}

/** The fields of a time series answer this adapter reads (https://twelvedata.com/docs#time-series). */
interface TimeSeriesAnswer {
  status?: string;
  code?: number;
  message?: string;
  meta?: { symbol?: string; currency?: string; exchange?: string; exchange_timezone?: string; type?: string };
  values?: TimeSeriesValue[];
}
interface TimeSeriesValue { datetime?: string; open?: string; high?: string; low?: string; close?: string; volume?: string }

/** Bars dated before the start are dropped for daily bars only: a week's or a month's bar is dated at its own first day. */
/** A bar read from Twelve Data: its date and its values, oldest first. */
interface Bar { date: string; open: number | null; high: number | null; low: number | null; close: number | null; volume: number | null }

export function createTwelveDataProvider(config: TwelveDataConfig, deps: TwelveDataDeps): DataProvider {
  const client = new UpstreamClient({ name: TWELVEDATA_NAME, baseUrl: config.url, ...DEFAULT_LIMITS, ...deps.limits }, deps.logger);
  const now = deps.now ?? Date.now;
  const unreadable = (what: string) => upstreamFailure(TWELVEDATA_NAME, { kind: 'unreadable', what }, deps.logger);

  return {
    name: 'twelvedata',
    close: () => client.close(),
    async fetch(call: ProviderCall): Promise<Record<string, unknown>> {
      const request = historyRequest(call);
      const { start, end } = dates(request, now());
      const answer = await client.request({
        method: 'GET',
        path: '/time_series',
        query: { symbol: twelveDataSymbol(request.symbol), interval: INTERVALS[request.interval].interval, start_date: start, end_date: end === undefined ? undefined : addDays(end, 1), outputsize: OUTPUT_SIZE, apikey: config.apiKey },
        signal: call.signal,
      });
      const body = answer.body as TimeSeriesAnswer | null;
      if (body === null || typeof body !== 'object') throw unreadable('JSON that is not a time series');
      const timezone = body.meta?.exchange_timezone;
      if (body.status === 'error') {
        if (NO_DATA.test(body.message ?? '') && timezone) return history(request, body, timezone, []);
        throw statusInBody(body, answer.headers, deps.logger);
      }
      if (!Array.isArray(body.values)) throw unreadable('JSON without a values list');
      if (typeof timezone !== 'string' || timezone === '') throw unreadable('a time series without meta.exchange_timezone');
      const daily = INTERVALS[request.interval].interval === '1day';
      const bars = body.values.map(bar).reverse().filter((read) => (!daily || read.date >= (start ?? '')) && (end === undefined || read.date <= end));
      return history(request, body, timezone, bars) satisfies PriceHistory;
    },
  };
}

/** Twelve Data's message for a period without bars: the contract's empty `points`. */
const NO_DATA = /no data is available/i;
/** Its message for an unknown symbol, which it sends with code 400 (https://twelvedata.com/docs#errors). */
const SYMBOL_NOT_FOUND = /symbol\W*\s+(not found|or \W*figi\W* parameter is missing or invalid)/i;

/** `status: "error"` arrives in a 200 body with the HTTP status as `code`: through the one failure table. */
function statusInBody(body: TimeSeriesAnswer, headers: Record<string, string>, logger: Logger): Error {
  const code = typeof body.code === 'number' ? body.code : 500;
  if (code === 404 || (code === 400 && SYMBOL_NOT_FOUND.test(body.message ?? ''))) return upstreamFailure(TWELVEDATA_NAME, { kind: 'not_found' }, logger);
  return upstreamFailure(TWELVEDATA_NAME, { kind: 'status', status: code, headers }, logger);
}

/** The dates asked: `start`/`end` as given, or `range` counted back from today (`max`: no start, the newest 5000 bars). */
function dates(request: HistoryRequest, nowMs: number): { start: string | undefined; end: string | undefined } {
  const { period } = request;
  return 'range' in period ? { start: rangeStart(period.range, nowMs), end: undefined } : period;
}

/** The contract's notation where Twelve Data's differs: `BTC-USD` → `BTC/USD`, `EURUSD=X` → `EUR/USD`; others unchanged. */
export function twelveDataSymbol(symbol: string): string {
  const currencyPair = /^([A-Z]{3})([A-Z]{3})=X$/.exec(symbol);
  if (currencyPair) return `${currencyPair[1]}/${currencyPair[2]}`;
  const crypto = /^([A-Z0-9]{2,10})-(USD|EUR|GBP|JPY|USDT|BTC|ETH)$/.exec(symbol);
  return crypto ? `${crypto[1]}/${crypto[2]}` : symbol;
}

function bar(value: TimeSeriesValue): Bar {
  return { date: (value.datetime ?? '').slice(0, 10), open: decimal(value.open), high: decimal(value.high), low: decimal(value.low), close: decimal(value.close), volume: count(value.volume) };
}

function history(request: HistoryRequest, body: TimeSeriesAnswer, timezone: string, bars: Bar[]): PriceHistory {
  const meta = body.meta ?? {};
  const symbol = meta.symbol ?? request.symbol;
  return {
    symbol: symbol.toUpperCase(),
    currency: meta.currency ?? /^[A-Z0-9]+\/([A-Z]{3})$/.exec(symbol)?.[1] ?? null,
    exchange: meta.exchange ?? null,
    instrument_type: meta.type ?? null,
    timezone,
    interval: request.interval,
    points: groups(bars, INTERVALS[request.interval].group).map((group) => point(group, timezone)),
  };
}

function groups(bars: Bar[], group: number | 'quarter'): Bar[][] {
  if (group === 'quarter') {
    const byQuarter = new Map<string, Bar[]>();
    for (const one of bars) {
      const quarter = `${one.date.slice(0, 4)}-${Math.floor((Number(one.date.slice(5, 7)) - 1) / 3)}`;
      byQuarter.set(quarter, [...(byQuarter.get(quarter) ?? []), one]);
    }
    return [...byQuarter.values()];
  }
  return Array.from({ length: Math.ceil(bars.length / group) }, (_, index) => bars.slice(index * group, (index + 1) * group));
}

/** One point from its bars: the first open, the highest high, the lowest low, the last close, the volumes summed (null when a bar has none); timestamped at 00:00 of its first date in the exchange's zone. */
function point(group: Bar[], timezone: string): PricePoint {
  const first = group[0]!;
  const last = group[group.length - 1]!;
  const known = (values: (number | null)[]): number[] | null => (values.some((value) => value === null) ? null : (values as number[]));
  const highs = known(group.map((one) => one.high));
  const lows = known(group.map((one) => one.low));
  const volumes = known(group.map((one) => one.volume));
  return {
    timestamp: isoSeconds(startOfLocalDay(first.date, timezone)),
    open: first.open,
    high: highs === null ? null : Math.max(...highs),
    low: lows === null ? null : Math.min(...lows),
    close: last.close,
    adjusted_close: null,
    volume: volumes === null ? null : volumes.reduce((sum, volume) => sum + volume, 0),
  };
}

function decimal(value: unknown): number | null {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  return Number.isFinite(number) ? number : null;
}

function count(value: unknown): number | null {
  const number = decimal(value);
  return number !== null && Number.isInteger(number) && number >= 0 ? number : null;
}
