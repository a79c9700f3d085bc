import { describe, expect, it } from 'vitest';
import { sandboxSocialEvents } from './socialnet.ts';

const URL_OF_PAGE = 'https://social.example/groups/kept-listing';
const everything = { url: URL_OF_PAGE, time: 'all', include: 'description,location,counts' } as never;

describe('the kept listings of the sandbox socialnet events', () => {
  it('answers a listing served from memory exactly as the first answer, whatever the filter in between', () => {
    const first = JSON.stringify(sandboxSocialEvents(everything));
    sandboxSocialEvents({ url: URL_OF_PAGE, time: 'past' } as never);
    expect(JSON.stringify(sandboxSocialEvents(everything))).toBe(first);
  });

  it('never lets one answer change the next: what an answer shares with the kept listing is read-only', () => {
    const answer = sandboxSocialEvents(everything);
    const before = JSON.stringify(sandboxSocialEvents(everything));
    const event = answer.events.find((candidate) => candidate.location !== null)!;
    event.name = 'renamed by a caller';
    expect(() => {
      (event.location as { city: string }).city = 'changed by a caller';
    }).toThrow(TypeError);
    expect(JSON.stringify(sandboxSocialEvents(everything))).toBe(before);
  });

  it('makes a listing dropped from memory (after 300 others) again exactly as before', () => {
    const first = JSON.stringify(sandboxSocialEvents(everything));
    for (let index = 0; index < 300; index++) sandboxSocialEvents({ url: `https://social.example/groups/crowd-${index}` } as never);
    expect(JSON.stringify(sandboxSocialEvents(everything))).toBe(first);
  });
});
