/** The bound of the mock's memos: at most `capacity` entries, the least recently used dropped first. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BoundedMemo } from './bounded-memo.ts';

describe('BoundedMemo', () => {
  const cases = [
    { name: 'keeps every entry up to its capacity', steps: ['set a', 'set b', 'set c'], kept: ['a', 'b', 'c'] },
    { name: 'drops the oldest entry when one more is set', steps: ['set a', 'set b', 'set c', 'set d'], kept: ['b', 'c', 'd'] },
    { name: 'drops the least recently read entry, not the first set', steps: ['set a', 'set b', 'set c', 'get a', 'set d'], kept: ['a', 'c', 'd'] },
    { name: 'setting a kept key again refreshes it without growing', steps: ['set a', 'set b', 'set c', 'set a', 'set d'], kept: ['a', 'c', 'd'] },
  ];

  it.each(cases)('$name', ({ steps, kept }) => {
    const memo = new BoundedMemo<string>(3);
    for (const step of steps) {
      const [action, key] = step.split(' ') as ['set' | 'get', string];
      if (action === 'set') memo.set(key, `value of ${key}`);
      else memo.get(key);
    }
    expect(memo.size).toBe(kept.length);
    expect(['a', 'b', 'c', 'd'].filter((key) => memo.get(key) !== undefined).sort()).toEqual(kept);
  });

  it('keeps what a least-recently-used map keeps, over any sequence of reads and writes', () => {
    const step = fc.tuple(fc.constantFrom('get', 'set'), fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'));
    fc.assert(fc.property(fc.integer({ min: 1, max: 4 }), fc.array(step, { maxLength: 40 }), (capacity, steps) => {
      const memo = new BoundedMemo<string>(capacity);
      // The reference: a Map in order of use, the first entry the least recently used.
      const reference = new Map<string, string>();
      for (const [action, key] of steps) {
        if (action === 'get') {
          const value = reference.get(key);
          if (value !== undefined) {
            reference.delete(key);
            reference.set(key, value);
          }
          expect(memo.get(key)).toBe(value);
        } else {
          const value = `${key}${steps.length}`;
          reference.delete(key);
          reference.set(key, value);
          if (reference.size > capacity) reference.delete(reference.keys().next().value!);
          memo.set(key, value);
        }
        expect(memo.size).toBe(reference.size);
      }
    }), { numRuns: 500, seed: 14 });
  });

  it('computes a value once through it, and again once the entry was dropped', () => {
    const memo = new BoundedMemo<number>(1);
    let computed = 0;
    const compute = () => ++computed;
    expect([memo.through('a', compute), memo.through('a', compute)]).toEqual([1, 1]);
    memo.through('b', compute);
    expect(memo.through('a', compute)).toBe(3);
  });
});
