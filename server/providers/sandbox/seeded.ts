/** A deterministic pseudo-random generator seeded from a string, and the helpers the sandbox builds data with. */
import { hash } from 'node:crypto';

/** The sandbox's fixed "now": relative periods (`range`, `time_range`, upcoming events) count from it. */
export const SANDBOX_NOW = Date.parse('2026-12-01T12:00:00Z');

const YEAR_2026_START = Date.parse('2026-01-01T00:00:00Z');
const YEAR_2026_END = Date.parse('2026-12-31T23:59:59Z');
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const WORDS = [
  'account', 'analytics', 'answer', 'archive', 'balance', 'beta', 'board', 'bridge', 'budget', 'cache', 'campaign',
  'channel', 'city', 'cloud', 'coffee', 'community', 'course', 'data', 'design', 'desk', 'dinner', 'engine', 'event',
  'export', 'feature', 'field', 'forest', 'garden', 'guide', 'harbor', 'index', 'insight', 'journey', 'kitchen',
  'launch', 'layer', 'market', 'meetup', 'model', 'morning', 'music', 'network', 'notes', 'office', 'orbit', 'planner',
  'platform', 'pricing', 'project', 'quarter', 'recipe', 'report', 'river', 'routine', 'search', 'season', 'signal',
  'studio', 'summit', 'team', 'theory', 'ticket', 'travel', 'update', 'valley', 'vector', 'weekend', 'window', 'workflow',
] as const;

const DAY_SECONDS = 86_400;

function twoDigits(value: number): string {
  return value < 10 ? `0${value}` : String(value);
}

/**
 * An ISO 8601 UTC date-time without milliseconds (`2026-10-07T16:22:05Z`), as `toISOString()` truncated to the
 * second, for the years 0000–9999, computed without a Date (the sandbox makes a hundred per listing). The calendar
 * is Howard Hinnant's `civil_from_days`.
 */
export function isoSeconds(epochMs: number): string {
  const totalSeconds = Math.floor(epochMs / 1000);
  const days = Math.floor(totalSeconds / DAY_SECONDS);
  const secondOfDay = totalSeconds - days * DAY_SECONDS;
  const shifted = days + 719_468;
  const era = Math.floor(shifted / 146_097);
  const dayOfEra = shifted - era * 146_097;
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365);
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const monthFromMarch = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * monthFromMarch + 2) / 5) + 1;
  const month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  const hours = Math.floor(secondOfDay / 3600);
  const minutes = Math.floor((secondOfDay % 3600) / 60);
  return `${String(year).padStart(4, '0')}-${twoDigits(month)}-${twoDigits(day)}T${twoDigits(hours)}:${twoDigits(minutes)}:${twoDigits(secondOfDay % 60)}Z`;
}

/** The first `length` hex characters of the SHA-256 of `text`: a short stable fingerprint. */
export function fingerprint(text: string, length = 12): string {
  return hash('sha256', text, 'hex').slice(0, length);
}

/** sfc32 seeded with the SHA-256 of the seed: the same seed always gives the same sequence. */
export class SeededRandom {
  #a: number;
  #b: number;
  #c: number;
  #d: number;

  constructor(seed: string) {
    const digest = hash('sha256', seed, 'buffer');
    this.#a = digest.readUInt32BE(0);
    this.#b = digest.readUInt32BE(4);
    this.#c = digest.readUInt32BE(8);
    this.#d = digest.readUInt32BE(12) | 1;
    for (let i = 0; i < 12; i++) this.next();
  }

  /** A float in [0, 1). */
  next(): number {
    const t = (((this.#a + this.#b) | 0) + this.#d) | 0;
    this.#d = (this.#d + 1) | 0;
    this.#a = this.#b ^ (this.#b >>> 9);
    this.#b = (this.#c + (this.#c << 3)) | 0;
    this.#c = (this.#c << 21) | (this.#c >>> 11);
    this.#c = (this.#c + t) | 0;
    return (t >>> 0) / 4294967296;
  }

  /** An integer from `min` to `max`, both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** A float from `min` to `max`, rounded to `decimals`. */
  float(min: number, max: number, decimals = 2): number {
    return round(min + this.next() * (max - min), decimals);
  }

  /** `true` with probability `p`. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** `make()` most of the time, `null` with probability `pNull` (for the contract's "unknown" values). */
  orNull<T>(pNull: number, make: () => T): T | null {
    return this.chance(pNull) ? null : make();
  }

  /** One element of a non-empty list. */
  pick<T>(list: readonly T[]): T {
    const item = list[Math.floor(this.next() * list.length)];
    if (item === undefined) throw new Error('pick from an empty list');
    return item;
  }

  /** `count` distinct words of the sandbox vocabulary, lower case. */
  words(count: number): string[] {
    const pool: string[] = [...WORDS];
    const chosen: string[] = [];
    for (let i = 0; i < count && pool.length > 0; i++) chosen.push(pool.splice(this.int(0, pool.length - 1), 1)[0]!);
    return chosen;
  }

  /** A sentence of `min` to `max` words, capitalised, ending with a full stop. */
  sentence(min = 6, max = 14): string {
    const count = this.int(min, max);
    let text = '';
    for (let i = 0; i < count; i++) text += (i === 0 ? '' : ' ') + this.pick(WORDS);
    return `${capitalise(text)}.`;
  }

  /** A title of `min` to `max` distinct words, each capitalised. */
  title(min = 2, max = 5): string {
    return this.words(this.int(min, max)).map(capitalise).join(' ');
  }

  /** A URL slug of `count` distinct words (`cache-planner`). */
  slug(count = 2): string {
    return this.words(count).join('-');
  }

  /** An ISO date-time, whole seconds, from `from` to `to` (epoch ms; default: the year 2026). */
  dateTime(from = YEAR_2026_START, to = YEAR_2026_END): string {
    return isoSeconds(from + Math.floor(this.next() * ((to - from) / 1000 + 1)) * 1000);
  }

  /** `length` lower-case hex characters. */
  hex(length: number): string {
    let text = '';
    for (let i = 0; i < length; i++) text += this.int(0, 15).toString(16);
    return text;
  }

  /** `length` characters of Crockford's base 32 (upper case, as in ULIDs). */
  base32(length: number): string {
    let text = '';
    for (let i = 0; i < length; i++) text += CROCKFORD[this.int(0, 31)];
    return text;
  }

  /** `length` decimal digits, the first not zero (a numeric id as text). */
  digits(length: number): string {
    let text = String(this.int(1, 9));
    for (let i = 1; i < length; i++) text += this.int(0, 9);
    return text;
  }
}

/** Rounds to `decimals` decimal places. */
export function round(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
}

/** The text with its first letter upper-cased. */
export function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
