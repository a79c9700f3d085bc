/**
 * `finance/history` on Yahoo Finance's chart endpoint:
 * `GET {YAHOO_FINANCE_URL}/v8/finance/chart/{symbol}?interval=…&range=…|period1=…&period2=…&events=div,splits`.
 */
import type { Logger } from 'pino';
import { UpstreamClient, type UpstreamClientConfig } from '../../upstream/upstream-client.ts';
import { upstreamFailure } from '../../upstream/upstream-failure.ts';
import { historyRequest, isoSeconds, localDate, type HistoryRequest, type PriceHistory, type PricePoint } from '../finance/history-request.ts';
import type { DataProvider, ProviderCall } from '../types.ts';
import type { YahooConfig } from './config.ts';

export { yahooConfig, YAHOO_FINANCE_DEFAULT_URL, type YahooConfig } from './config.ts';

export const YAHOO_NAME = 'Yahoo Finance';
const DEFAULT_LIMITS = { timeoutMs: 15_000, maxResponseBytes: 10 * 1024 * 1024, maxInFlight: 4 };
const HOUR_S = 3600;
const DAY_S = 86_400;

export interface YahooDeps {
  logger: Logger;
  limits?: Partial<Pick<UpstreamClientConfig, 'timeoutMs' | 'maxResponseBytes' | 'maxInFlight'>>;
  now?: () => number;
}

/** The fields of a chart answer this adapter reads. */
interface ChartAnswer {
  chart?: { result?: ChartResult[] | null; error?: { code?: string; description?: string } | null };
}
interface ChartResult {
  meta?: { symbol?: string; currency?: string | null; exchangeName?: string | null; instrumentType?: string | null; exchangeTimezoneName?: string };
  timestamp?: number[];
  indicators?: {
    quote?: { open?: (number | null)[]; high?: (number | null)[]; low?: (number | null)[]; close?: (number | null)[]; volume?: (number | null)[] }[];
    adjclose?: { adjclose?: (number | null)[] }[];
  };
}

export function createYahooProvider(config: YahooConfig, deps: YahooDeps): DataProvider {
  const client = new UpstreamClient({ name: YAHOO_NAME, baseUrl: config.url, ...DEFAULT_LIMITS, ...deps.limits }, deps.logger);
  const now = deps.now ?? Date.now;
  const unreadable = (what: string) => upstreamFailure(YAHOO_NAME, { kind: 'unreadable', what }, deps.logger);

  return {
    name: 'yahoo',
    close: () => client.close(),
    async fetch(call: ProviderCall): Promise<Record<string, unknown>> {
      const request = historyRequest(call);
      const answer = await client.request({ method: 'GET', path: `/v8/finance/chart/${encodeURIComponent(request.symbol)}`, query: chartQuery(request, now()), signal: call.signal });
      const chart = (answer.body as ChartAnswer | null)?.chart;
      if (chart?.error) {
        if (chart.error.code === 'Not Found') throw upstreamFailure(YAHOO_NAME, { kind: 'not_found' }, deps.logger);
        throw unreadable(`the error ${JSON.stringify(chart.error.code ?? 'unknown')}`);
      }
      const result = Array.isArray(chart?.result) ? chart.result[0] : undefined;
      if (result === undefined) throw unreadable('JSON without chart.result');
      const timezone = result.meta?.exchangeTimezoneName;
      if (typeof timezone !== 'string' || timezone === '') throw unreadable('a chart without meta.exchangeTimezoneName');
      return history(request, result, timezone) satisfies PriceHistory;
    },
  };
}

/** Yahoo's intervals and ranges have the contract's names; dates become epoch seconds padded by the widest zone offsets (the answer is cut to the dates in the exchange's zone). */
function chartQuery(request: HistoryRequest, nowMs: number): Record<string, string | number> {
  const { interval, period } = request;
  if ('range' in period) return { interval, range: period.range, events: 'div,splits' };
  const period1 = Date.parse(`${period.start}T00:00:00Z`) / 1000 - 14 * HOUR_S;
  const period2 = period.end === undefined ? Math.floor(nowMs / 1000) : Date.parse(`${period.end}T00:00:00Z`) / 1000 + DAY_S + 12 * HOUR_S;
  return { interval, period1, period2, events: 'div,splits' };
}

function history(request: HistoryRequest, result: ChartResult, timezone: string): PriceHistory {
  const meta = result.meta ?? {};
  const quote = result.indicators?.quote?.[0] ?? {};
  const adjclose = result.indicators?.adjclose?.[0]?.adjclose;
  const reportsVolume = meta.instrumentType !== 'CURRENCY';
  const points: PricePoint[] = (result.timestamp ?? []).map((seconds, index) => ({
    timestamp: isoSeconds(seconds * 1000),
    open: numberOrNull(quote.open?.[index]),
    high: numberOrNull(quote.high?.[index]),
    low: numberOrNull(quote.low?.[index]),
    close: numberOrNull(quote.close?.[index]),
    adjusted_close: numberOrNull(adjclose?.[index]),
    volume: reportsVolume ? volumeOrNull(quote.volume?.[index]) : null,
  }));
  return {
    symbol: (meta.symbol ?? request.symbol).toUpperCase(),
    currency: meta.currency ?? null,
    exchange: meta.exchangeName ?? null,
    instrument_type: meta.instrumentType ?? null,
    timezone,
    interval: request.interval,
    points: points.filter((point, index) => inPeriod(request, (result.timestamp ?? [])[index]!, timezone)),
  };
}

/** With `start`/`end`, the padded period's points outside the dates in the exchange's zone are dropped (before `start` only for daily points: wider ones start on Yahoo's own boundaries). */
function inPeriod(request: HistoryRequest, seconds: number, timezone: string): boolean {
  const { period } = request;
  if ('range' in period) return true;
  const date = localDate(seconds * 1000, timezone);
  if (period.end !== undefined && date > period.end) return false;
  return request.interval !== '1d' || date >= period.start;
}

function numberOrNull(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

function volumeOrNull(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : null;
}
