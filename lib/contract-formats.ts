/**
 * The formats the contract uses, for every Ajv that validates against it: ajv-formats' (full mode,
 * as the server's validator checks them) and OpenAPI's `int32` and `int64`, which ajv-formats does
 * not know (Ajv would ignore them, with a warning for each schema that names one).
 *
 * The string formats answers carry many of (`date-time`, `date`, `time`, `uri`) are checked by
 * ajv-formats' own functions through a bounded memo of their verdicts: a format's verdict depends on
 * the string alone, and the same strings come back answer after answer (an event's start, a
 * page's URL), where the full `uri` expression and the date-time parse cost ~30 µs per answer of
 * 20 events (~2 µs with the memo).
 */
import type { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { BoundedMemo } from './bounded-memo.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020, options: { mode: 'full' }) => Ajv2020;
const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;
/** Verdicts kept per format, and the longest string whose verdict is kept (at most ~4 MB per format, in the worst case). */
const VERDICTS_KEPT = 4096;
const LONGEST_KEPT = 512;

type StringCheck = (value: string) => boolean;

/** `check` with its verdicts on the strings seen last kept. */
export function memoizedCheck(check: StringCheck): StringCheck {
  const verdicts = new BoundedMemo<boolean>(VERDICTS_KEPT);
  return (value) => (value.length > LONGEST_KEPT ? check(value) : verdicts.through(value, () => check(value)));
}

/** ajv-formats' full-mode check of `name`: a function (`uri`) or a definition with its comparison (the dates and times). */
export function fullFormatCheck(name: 'date-time' | 'date' | 'time' | 'uri'): { validate: StringCheck; compare?: (a: string, b: string) => number | undefined } {
  const format = fullFormats[name] as unknown;
  if (typeof format === 'function') return { validate: format as StringCheck };
  return format as { validate: StringCheck; compare?: (a: string, b: string) => number | undefined };
}

/** The memoized formats, one memo per format for every Ajv of the process (a verdict is the same for all). */
const MEMOIZED_FORMATS = (['date-time', 'date', 'time', 'uri'] as const).map((name) => {
  const { validate, compare } = fullFormatCheck(name);
  return { name, definition: { type: 'string' as const, validate: memoizedCheck(validate), ...(compare ? { compare } : {}) } };
});

export function withContractFormats(ajv: Ajv2020): Ajv2020 {
  addFormats(ajv, { mode: 'full' });
  for (const { name, definition } of MEMOIZED_FORMATS) ajv.addFormat(name, definition);
  ajv.addFormat('int32', { type: 'number', validate: (value: number) => Number.isInteger(value) && value >= INT32_MIN && value <= INT32_MAX });
  ajv.addFormat('int64', { type: 'number', validate: (value: number) => Number.isInteger(value) });
  return ajv;
}
