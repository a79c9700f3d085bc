/** The sandbox's price history: one made-up but consistent daily series per symbol, aggregated per `interval`. */
import type { components } from '../../../generated/types.ts';
import { ProviderError } from '../types.ts';
import { failOnMagicId } from './magic-failures.ts';
import { type Query, requiredParam, stringParam } from './request.ts';
import { isoSeconds, round, SANDBOX_NOW, SeededRandom } from './seeded.ts';

type PriceHistory = components['schemas']['PriceHistory'];
type PricePoint = components['schemas']['PricePoint'];
type PriceInterval = components['schemas']['PriceInterval'];

const DAY = 86_400_000;
const TODAY = Math.floor(SANDBOX_NOW / DAY) * DAY;
const INTERVALS: readonly PriceInterval[] = ['1d', '5d', '1wk', '1mo', '3mo'];
const RANGES = ['1d', '5d', '1mo', '3mo', '6mo', '1y', '2y', '5y', '10y', 'ytd', 'max'];

interface Instrument {
  type: string;
  currency: string;
  exchange: string;
  timezone: string;
  /** Opening time of a session, minutes after 00:00 UTC. */
  openMinute: number;
  tradesWeekends: boolean;
  hasVolume: boolean;
  decimals: number;
  /** How much the price moves compared with a share: currency pairs and indices move less. */
  swing: number;
}

interface Day { day: number; open: number; high: number; low: number; close: number; volume: number }

/** `GET /finance/history`: OHLC points of `symbol`, oldest first, one per `interval` of the period (`range` or `start`/`end`). */
export function sandboxPriceHistory(query: Query): PriceHistory {
  const symbol = requiredParam(query, 'symbol').toUpperCase();
  failOnMagicId(symbol);
  const interval = (stringParam(query, 'interval') ?? '1d') as PriceInterval;
  if (!INTERVALS.includes(interval)) throw new ProviderError('invalid_parameters', `Unknown interval ${interval}.`);
  const instrument = describe(symbol);
  const listedSince = TODAY - new SeededRandom(`listing:${symbol}`).int(6 * 365, 40 * 365) * DAY;
  const [from, to] = period(query, listedSince, instrument);
  const barOf = dailySeries(symbol, instrument);
  const days: Day[] = [];
  for (let day = Math.max(from, listedSince); day <= to; day += DAY) {
    const weekday = new Date(day).getUTCDay();
    if (instrument.tradesWeekends || (weekday !== 0 && weekday !== 6)) days.push(barOf(day));
  }
  const points = groupDays(days, interval).map((group) => point(group, instrument));
  return { symbol, currency: instrument.currency, exchange: instrument.exchange, instrument_type: instrument.type, timezone: instrument.timezone, interval, points };
}

/** The first and last day (00:00 UTC, both inclusive) of the requested period; today is the sandbox's fixed date. */
function period(query: Query, listedSince: number, instrument: Instrument): [number, number] {
  const range = stringParam(query, 'range');
  const start = stringParam(query, 'start');
  const end = stringParam(query, 'end');
  if (range !== undefined && (start !== undefined || end !== undefined)) throw invalid('`range` cannot be combined with `start` or `end`.');
  if (end !== undefined && start === undefined) throw invalid('`end` needs `start`.');
  if (start !== undefined) {
    const from = parseDate(start, 'start');
    const to = end === undefined ? TODAY : parseDate(end, 'end');
    if (to < from) throw invalid(end === undefined ? '`start` is after today.' : '`end` is before `start`.');
    return [from, Math.min(to, TODAY)];
  }
  const chosen = range ?? '1mo';
  if (!RANGES.includes(chosen)) throw invalid(`Unknown range ${chosen}.`);
  const back = (months: number): number => {
    const date = new Date(TODAY);
    date.setUTCMonth(date.getUTCMonth() - months);
    return date.getTime();
  };
  const from: Record<string, number> = {
    '1d': TODAY, '5d': TODAY - (instrument.tradesWeekends ? 4 : 6) * DAY, '1mo': back(1), '3mo': back(3), '6mo': back(6), '1y': back(12), '2y': back(24), '5y': back(60), '10y': back(120),
    ytd: Date.UTC(new Date(TODAY).getUTCFullYear(), 0, 1), max: listedSince,
  };
  return [from[chosen] ?? back(1), TODAY];
}

/** What the symbol looks like it is, from its notation (`^GSPC`, `EURUSD=X`, `BTC-USD`, `CL=F`, `VOD.L`). */
function describe(symbol: string): Instrument {
  const base = { openMinute: 14 * 60 + 30, tradesWeekends: false, hasVolume: true, decimals: 2, swing: 1 };
  if (symbol.startsWith('^')) return { ...base, type: 'INDEX', currency: 'USD', exchange: 'SNP', timezone: 'America/New_York', swing: 0.5 };
  if (symbol.endsWith('=X')) return { ...base, type: 'CURRENCY', currency: /^[A-Z]{6}=X$/.test(symbol) ? symbol.slice(3, 6) : /^[A-Z]{3}=X$/.test(symbol) ? symbol.slice(0, 3) : 'USD', exchange: 'CCY', timezone: 'Europe/London', openMinute: 0, hasVolume: false, decimals: 4, swing: 0.2 };
  if (symbol.endsWith('=F')) return { ...base, type: 'FUTURE', currency: 'USD', exchange: 'NYM', timezone: 'America/New_York', openMinute: 0 };
  if (/-(USD|EUR)$/.test(symbol)) return { ...base, type: 'CRYPTOCURRENCY', currency: symbol.slice(-3), exchange: 'CCC', timezone: 'UTC', openMinute: 0, tradesWeekends: true };
  if (symbol.endsWith('.L')) return { ...base, type: 'EQUITY', currency: 'GBP', exchange: 'LSE', timezone: 'Europe/London', openMinute: 8 * 60 };
  if (symbol.endsWith('.DE')) return { ...base, type: 'EQUITY', currency: 'EUR', exchange: 'XETRA', timezone: 'Europe/Berlin', openMinute: 8 * 60 };
  if (symbol.endsWith('.T')) return { ...base, type: 'EQUITY', currency: 'JPY', exchange: 'JPX', timezone: 'Asia/Tokyo', openMinute: 0 };
  return { ...base, type: 'EQUITY', currency: 'USD', exchange: 'NasdaqGS', timezone: 'America/New_York' };
}

/** The symbol's daily bars: a smooth price path plus daily noise, so any period of a symbol agrees with any other. */
function dailySeries(symbol: string, instrument: Instrument): (day: number) => Day {
  const traits = new SeededRandom(`instrument:${symbol}`);
  const basePrice = instrument.type === 'CURRENCY' ? traits.float(0.5, 1.6, 4) : traits.float(8, 900);
  const [shortCycle, longCycle] = [traits.int(30, 90), traits.int(200, 700)];
  const [shortPhase, longPhase] = [traits.next() * 2 * Math.PI, traits.next() * 2 * Math.PI];
  const yearlyTrend = traits.float(-0.05, 0.15, 3) * instrument.swing;
  const volatility = traits.float(0.005, 0.03, 3) * instrument.swing;
  const baseVolume = traits.int(200_000, 60_000_000);
  const logPrice = (dayNumber: number): number =>
    Math.log(basePrice) +
    instrument.swing * 0.06 * Math.sin((2 * Math.PI * dayNumber) / shortCycle + shortPhase) +
    instrument.swing * 0.2 * Math.sin((2 * Math.PI * dayNumber) / longCycle + longPhase) +
    (yearlyTrend * (dayNumber - TODAY / DAY)) / 365;
  return (day) => {
    const noise = new SeededRandom(`day:${symbol}:${day}`);
    const close = Math.exp(logPrice(day / DAY) + (noise.next() - 0.5) * volatility);
    const open = Math.exp(logPrice(day / DAY - 1) + (noise.next() - 0.5) * volatility);
    const high = Math.max(open, close) * (1 + noise.next() * volatility);
    const low = Math.min(open, close) * (1 - noise.next() * volatility);
    return { day, open, high, low, close, volume: Math.floor(baseVolume * (0.4 + noise.next() * 1.2)) };
  };
}

/** The trading days grouped by interval: runs of 1 or 5 days, ISO weeks, calendar months or quarters. */
function groupDays(days: Day[], interval: PriceInterval): Day[][] {
  if (interval === '1d' || interval === '5d') {
    const size = interval === '1d' ? 1 : 5;
    return Array.from({ length: Math.ceil(days.length / size) }, (_, index) => days.slice(index * size, (index + 1) * size));
  }
  const key = (day: number): number => {
    const date = new Date(day);
    if (interval === '1wk') return Math.floor((day / DAY + 3) / 7); // weeks starting on Monday (1970-01-01 was a Thursday)
    const month = date.getUTCFullYear() * 12 + date.getUTCMonth();
    return interval === '1mo' ? month : Math.floor(month / 3);
  };
  const groups = new Map<number, Day[]>();
  for (const day of days) groups.set(key(day.day), [...(groups.get(key(day.day)) ?? []), day]);
  return [...groups.values()];
}

/** The point of one interval, timestamped at its first session's opening time. */
function point(group: Day[], instrument: Instrument): PricePoint {
  const first = group[0]!;
  const last = group[group.length - 1]!;
  const price = (value: number): number => round(value, instrument.decimals);
  const open = price(first.open);
  const close = price(last.close);
  const yearsAgo = (TODAY - last.day) / (365 * DAY);
  return {
    timestamp: isoSeconds(first.day + instrument.openMinute * 60_000),
    open,
    high: Math.max(price(Math.max(...group.map((day) => day.high))), open, close),
    low: Math.min(price(Math.min(...group.map((day) => day.low))), open, close),
    close,
    adjusted_close: instrument.type === 'EQUITY' ? price(last.close * Math.max(0.5, 1 - 0.012 * yearsAgo)) : close,
    volume: instrument.hasVolume ? group.reduce((sum, day) => sum + day.volume, 0) : null,
  };
}

function parseDate(value: string, name: string): number {
  const ms = Date.parse(`${value}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(ms)) throw invalid(`\`${name}\` is not a date.`);
  return ms;
}

function invalid(message: string): ProviderError {
  return new ProviderError('invalid_parameters', message);
}
