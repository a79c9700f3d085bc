/**
 * The contract's formats: the memoized string checks give ajv-formats' own verdicts, first time and
 * every time after, on strings made to sit near each format's edges; the memo stays bounded.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fullFormatCheck, memoizedCheck, withContractFormats } from './contract-formats.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020, options: { mode: 'full' }) => Ajv2020;
const FORMATS = ['date-time', 'date', 'time', 'uri'] as const;

const VALID = {
  'date-time': ['2026-02-28T23:59:60Z', '2024-02-29t00:00:00.123+01:00', '2026-11-26 10:00:00-05:00'],
  date: ['2024-02-29', '2026-12-31'],
  time: ['23:59:60Z', '10:00:00.5+01:00'],
  uri: ['https://example.com/a?b=c#d', 'mailto:someone@example.com', 'http://[::1]:8080/x'],
};

/** Strings near the formats: pieces of dates, times, zones and URIs put together, and any string. */
const nearFormats = fc.oneof(
  fc.array(fc.constantFrom('2026', '1999', '0000', '-', '02', '13', '29', '30', '31', '00', 'T', 't', ' ', '23', '24', ':', '59', '60', '.5', 'Z', 'z', '+01:00', '-23:59', '+2400', 'https', 'mailto', ':', '//', 'example.com', '[::1]', '/path', '?q=1', '#f', '%20', '%zz', 'ü', '\\'), { maxLength: 9 }).map((parts) => parts.join('')),
  fc.string({ maxLength: 40 }),
);

describe('the contract formats', () => {
  it.each(FORMATS)('%s: the memoized check answers what ajv-formats answers, on first sight and again', (name) => {
    const { validate } = fullFormatCheck(name);
    const memoized = memoizedCheck(validate);
    const verdicts = new Set<boolean>();
    fc.assert(fc.property(fc.oneof(nearFormats, fc.constantFrom(...VALID[name])), (value) => {
      verdicts.add(validate(value));
      expect(memoized(value)).toBe(validate(value));
      expect(memoized(value)).toBe(validate(value));
    }), { numRuns: 3000 });
    expect([...verdicts].sort()).toEqual([false, true]);
  });

  it('an Ajv with the contract formats agrees with one made with ajv-formats alone on every format the contract uses', () => {
    const ours = withContractFormats(new Ajv2020({ strict: false }));
    const theirs = addFormats(new Ajv2020({ strict: false }), { mode: 'full' });
    for (const name of FORMATS) {
      const [mine, reference] = [ours.compile({ type: 'string', format: name }), theirs.compile({ type: 'string', format: name })];
      fc.assert(fc.property(nearFormats, (value) => {
        expect(mine(value)).toBe(reference(value));
      }), { numRuns: 1000 });
    }
    expect(ours.validate({ type: 'integer', format: 'int32' }, 2 ** 31)).toBe(false);
    expect(ours.validate({ type: 'integer', format: 'int64' }, 2 ** 40)).toBe(true);
  });

  it('keeps verdicts for a bounded number of strings, and none for a string over the length kept', () => {
    let checks = 0;
    const memoized = memoizedCheck((value) => (checks++, value.startsWith('a')));
    for (let index = 0; index < 5000; index++) memoized(`a${index}`);
    expect(checks).toBe(5000);
    memoized('a4999'); // among the last 4,096: answered from the memo
    expect(checks).toBe(5000);
    memoized('a0'); // dropped first
    expect(checks).toBe(5001);
    const long = `a${'x'.repeat(600)}`;
    memoized(long);
    memoized(long);
    expect(checks).toBe(5003);
  });
});
