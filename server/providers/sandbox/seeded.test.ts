import { describe, expect, it } from 'vitest';
import { isoSeconds, SeededRandom } from './seeded.ts';

const GOLDEN = 'c5704886f349e68078d7d8ec2266f78513f20fed4dd6a40e12be6f27d2954f34';

describe('isoSeconds', () => {
  const cases: [string, number][] = [
    ['the epoch', 0],
    ['a millisecond before the epoch', -1],
    ['the year 0000', Date.parse('0000-01-01T00:00:00Z')],
    ['the last second of 9999', Date.parse('9999-12-31T23:59:59.999Z')],
    ['29 February of a leap year', Date.parse('2024-02-29T23:59:59.500Z')],
    ['29 February of a 400-year leap year', Date.parse('2000-02-29T12:00:00Z')],
    ['1 March after a century that is not a leap year', Date.parse('2100-03-01T00:00:00Z')],
    ['the sandbox now', Date.parse('2026-12-01T12:00:00Z')],
  ];
  it.each(cases)('is toISOString() truncated to the second for %s', (_name, epochMs) => {
    expect(isoSeconds(epochMs)).toBe(`${new Date(epochMs).toISOString().slice(0, 19)}Z`);
  });

  it('is toISOString() truncated to the second for 100,000 seeded instants across 0000–9999', () => {
    const random = new SeededRandom('isoSeconds');
    const first = Date.parse('0000-01-01T00:00:00Z');
    const last = Date.parse('9999-12-31T23:59:59.999Z');
    for (let index = 0; index < 100_000; index++) {
      const epochMs = Math.floor(first + random.next() * (last - first));
      expect(isoSeconds(epochMs)).toBe(`${new Date(epochMs).toISOString().slice(0, 19)}Z`);
    }
  });
});

describe('the sandbox generator', () => {
  // A golden fingerprint of listings and of every helper's output, taken before the generator was made faster
  // (one-shot hashes, no Date per timestamp, no arrays per string): the same request must keep giving the same data.
  it('gives byte for byte the data it gave before it was made faster', async () => {
    const { sandboxSocialEvents } = await import('./socialnet.ts');
    const { fingerprint } = await import('./seeded.ts');
    const parts: string[] = [];
    for (let index = 0; index < 20; index++) {
      for (const time of ['upcoming', 'past', 'all']) parts.push(JSON.stringify(sandboxSocialEvents({ url: `https://social.example/groups/g${index}`, time, include: 'description,location,counts' } as never)));
      const random = new SeededRandom(`x${index}`);
      parts.push([random.sentence(), random.digits(16), random.hex(12), random.base32(26), random.title(), random.slug(3), random.dateTime(), isoSeconds(index * 1_234_567), fingerprint(`f${index}`)].join('|'));
    }
    expect(fingerprint(parts.join('\n'), 64)).toBe(GOLDEN);
  });
});
