/** The opaque cursor around an upstream's: round trip, bound to the query, never the upstream's raw. */
import { describe, expect, it } from 'vitest';
import { unwrapCursor, wrapCursor } from './upstream-cursor.ts';

const query = { url: 'https://www.meetup.com/berlin-hikers/', time: 'upcoming', limit: 20 };

describe('upstream cursors', () => {
  it('gives back the upstream cursor for the query it was issued for, and hides it from the caller', () => {
    const cursor = wrapCursor('listSocialEvents', query, 'MjAyNi0xMi0wMVQxOTowMDowMFp8MzA5');
    expect(cursor).not.toContain('MjAyNi0xMi0wMVQxOTowMDowMFp8MzA5');
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(unwrapCursor('listSocialEvents', { ...query, cursor })).toBe('MjAyNi0xMi0wMVQxOTowMDowMFp8MzA5');
  });

  it('answers undefined without a cursor', () => {
    expect(unwrapCursor('listSocialEvents', query)).toBeUndefined();
    expect(unwrapCursor('listSocialEvents', { ...query, cursor: '' })).toBeUndefined();
  });

  const refused = [
    { name: 'a cursor of another query', cursor: () => wrapCursor('listSocialEvents', { ...query, time: 'past' }, 'abc') },
    { name: 'a cursor of another operation', cursor: () => wrapCursor('listCollectionVideos', query, 'abc') },
    { name: "the upstream's raw cursor", cursor: () => 'abc' },
    { name: 'a forged cursor', cursor: () => Buffer.from(JSON.stringify(['up1', '0000000000000000', 'abc'])).toString('base64url') },
  ];

  it.each(refused)('refuses $name with invalid_parameters', ({ cursor }) => {
    expect(() => unwrapCursor('listSocialEvents', { ...query, cursor: cursor() })).toThrow(expect.objectContaining({ code: 'invalid_parameters', message: 'Invalid parameters: query.cursor was not issued for this list and these parameters.' }));
  });
});
