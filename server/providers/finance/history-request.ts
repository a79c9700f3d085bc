/**
 * What a `finance/history` call asks, read once for every finance adapter: the symbol (letters
 * upper-cased), the interval (default `1d`) and the period, either a `range` (default `1mo`) or
 * `start`/`end` dates (the gateway has already refused the combinations the contract forbids).
 */
import type { components } from '../../../generated/types.ts';
import { ProviderError, type ProviderCall } from '../types.ts';

export type PriceInterval = components['schemas']['PriceInterval'];
export type PriceHistory = components['schemas']['PriceHistory'];
export type PricePoint = components['schemas']['PricePoint'];

export type HistoryPeriod = { range: string } | { start: string; end: string | undefined };

export interface HistoryRequest {
  symbol: string;
  interval: PriceInterval;
  period: HistoryPeriod;
}

const DAY_MS = 86_400_000;

export function historyRequest(call: ProviderCall): HistoryRequest {
  if (call.operationId !== 'getPriceHistory') throw new ProviderError('capability_unavailable', `This provider does not serve ${call.operationId}.`);
  const text = (name: string): string | undefined => (typeof call.query[name] === 'string' ? (call.query[name] as string) : undefined);
  const start = text('start');
  return {
    symbol: (text('symbol') ?? '').toUpperCase(),
    interval: (text('interval') ?? '1d') as PriceInterval,
    period: start === undefined ? { range: text('range') ?? '1mo' } : { start, end: text('end') },
  };
}

/** The calendar date (`YYYY-MM-DD`) of `epochMs` in the IANA time zone `timeZone`. */
export function localDate(epochMs: number, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(epochMs);
}

/** Epoch milliseconds of 00:00 on `date` (`YYYY-MM-DD`) in the IANA time zone `timeZone`. */
export function startOfLocalDay(date: string, timeZone: string): number {
  const utcMidnight = Date.parse(`${date}T00:00:00Z`);
  const offset = zoneOffsetMs(utcMidnight, timeZone);
  const guess = utcMidnight - offset;
  return utcMidnight - zoneOffsetMs(guess, timeZone);
}

/** How far `timeZone`'s wall clock is ahead of UTC at `epochMs`. */
function zoneOffsetMs(epochMs: number, timeZone: string): number {
  const parts = Object.fromEntries(new Intl.DateTimeFormat('en-US', {
    timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
  }).formatToParts(epochMs).map((part) => [part.type, Number(part.value)]));
  const wall = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
  return wall - Math.floor(epochMs / 1000) * 1000;
}

/** RFC 3339 in UTC with a `Z` and whole seconds, as the contract's timestamps are. */
export function isoSeconds(epochMs: number): string {
  return new Date(epochMs).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** The first day (`YYYY-MM-DD`, UTC calendar) of a `range` counted back from `today` (as the sandbox counts); undefined for `max`. */
export function rangeStart(range: string, todayMs: number): string | undefined {
  const today = new Date(Math.floor(todayMs / DAY_MS) * DAY_MS);
  const monthsBack = (months: number): Date => new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - months, today.getUTCDate()));
  const days: Record<string, number> = { '1d': 0, '5d': 6 };
  const months: Record<string, number> = { '1mo': 1, '3mo': 3, '6mo': 6, '1y': 12, '2y': 24, '5y': 60, '10y': 120 };
  if (range === 'max') return undefined;
  if (range === 'ytd') return `${today.getUTCFullYear()}-01-01`;
  const date = days[range] !== undefined ? new Date(today.getTime() - days[range]! * DAY_MS) : monthsBack(months[range] ?? 1);
  return date.toISOString().slice(0, 10);
}

/** `date` plus `days` calendar days (`YYYY-MM-DD`). */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}
