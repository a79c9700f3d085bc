/** The sandbox's social-network events: the same events for the same page URL, filtered, ordered and paged. */
import type { components } from '../../../generated/types.ts';
import { ProviderError } from '../types.ts';
import { failOnMagicUrl } from './magic-failures.ts';
import { decodeCursor, encodeCursor, listParam, type Query, requiredParam, stringParam } from './request.ts';
import { BoundedMemo } from '../../../lib/bounded-memo.ts';
import { deepFrozen } from '../../../lib/deep-frozen.ts';
import { isoSeconds, round, SANDBOX_NOW, SeededRandom } from './seeded.ts';

type SocialEventsPage = components['schemas']['SocialEventsPage'];
type SocialEvent = components['schemas']['SocialEvent'];

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Every listing is cut into at most this many pages (each at most 20 events), so pagination is always exercised. */
const PAGES_PER_LISTING = 3;
const CITIES = [
  { city: 'Berlin', country: 'Germany', timezone: 'Europe/Berlin', latitude: 52.52, longitude: 13.405, street: 'Schönhauser Allee' },
  { city: 'Lisbon', country: 'Portugal', timezone: 'Europe/Lisbon', latitude: 38.7223, longitude: -9.1393, street: 'Rua Augusta' },
  { city: 'New York', country: 'United States', timezone: 'America/New_York', latitude: 40.7128, longitude: -74.006, street: 'Bedford Avenue' },
  { city: 'Tokyo', country: 'Japan', timezone: 'Asia/Tokyo', latitude: 35.6762, longitude: 139.6503, street: 'Omotesando' },
  { city: 'Melbourne', country: 'Australia', timezone: 'Australia/Melbourne', latitude: -37.8136, longitude: 144.9631, street: 'Brunswick Street' },
] as const;
/**
 * The listings of the pages asked for last: a listing depends on its URL alone and takes about 0.4 ms to make
 * (a seeded generator per event, each seeded by a SHA-256), ten times what serving one page of it takes. About 30 KB each.
 */
const LISTINGS_KEPT = 256;
const listings = new BoundedMemo<Listing>(LISTINGS_KEPT);

/** An event of a kept listing, with the start every call filters it by worked out once. */
interface ListedEvent {
  event: SocialEvent;
  startMs: number;
  /** Not ended at the sandbox's now (an event in progress counts as upcoming). */
  upcoming: boolean;
}

type TimeFilter = 'upcoming' | 'past' | 'all';

/** A page's events in the order each `time` lists them: upcoming soonest first, past and all latest first. */
type Listing = Readonly<Record<TimeFilter, readonly ListedEvent[]>>;

/** The page's listing, made and ordered once and kept read-only. */
function listingOf(url: string): Listing {
  return listings.through(url, () => {
    const listed: ListedEvent[] = eventsOfPage(url).map((event) => ({
      event,
      startMs: Date.parse(event.start_time),
      upcoming: Date.parse(event.end_time ?? event.start_time) > SANDBOX_NOW,
    }));
    const latestFirst = (a: ListedEvent, b: ListedEvent) => b.startMs - a.startMs;
    return deepFrozen({
      upcoming: listed.filter(({ upcoming }) => upcoming).sort((a, b) => a.startMs - b.startMs),
      past: listed.filter(({ upcoming }) => !upcoming).sort(latestFirst),
      all: [...listed].sort(latestFirst),
    });
  });
}

const KINDS = ['Night', 'Meetup', 'Market', 'Workshop', 'Festival', 'Talk', 'Party', 'Concert'];

/** `GET /socialnet/events`: one page of the page's events by `time`, `since`/`until`; fields outside `include` are null. */
export function sandboxSocialEvents(query: Query): SocialEventsPage {
  const url = requiredParam(query, 'url');
  failOnMagicUrl(url);
  const time = stringParam(query, 'time') ?? 'upcoming';
  const include = new Set(listParam(query, 'include', ''));
  const since = dateBound(query, 'since', 0);
  const until = dateBound(query, 'until', DAY);
  if (since !== undefined && until !== undefined && until <= since) {
    throw new ProviderError('invalid_parameters', '`until` is before `since`.');
  }
  const listed = listingOf(url)[time as TimeFilter];
  const matching = (since === undefined && until === undefined ? listed : listed.filter(({ startMs }) => (since === undefined || startMs >= since) && (until === undefined || startMs < until)))
    .map(({ event }) => event);

  const pageSize = Math.min(20, Math.max(1, Math.ceil(matching.length / PAGES_PER_LISTING)));
  const page = decodeCursor('listSocialEvents', query);
  const events = matching.slice(page * pageSize, (page + 1) * pageSize).map((event) => ({
    ...event,
    description: include.has('description') ? event.description : null,
    location: include.has('location') ? event.location : null,
    counts: include.has('counts') ? event.counts : null,
  }));
  const hasMore = (page + 1) * pageSize < matching.length;
  return { source_url: url, events, next_cursor: hasMore ? encodeCursor('listSocialEvents', query, page + 1) : null };
}

/** A `YYYY-MM-DD` parameter as epoch ms at 00:00 UTC plus `offset`, or `undefined` when absent. */
function dateBound(query: Query, name: string, offset: number): number | undefined {
  const value = stringParam(query, name);
  if (value === undefined) return undefined;
  const ms = Date.parse(`${value}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(ms)) throw new ProviderError('invalid_parameters', `\`${name}\` is not a date.`);
  return ms + offset;
}

/** Every event the page lists, all fields filled as the upstream gives them: 21 to 30 upcoming and as many past. */
function eventsOfPage(url: string): SocialEvent[] {
  const random = new SeededRandom(`socialnet-page:${url}`);
  const home = random.pick(CITIES);
  const venue = `${random.title(1, 2)} ${random.pick(['Hall', 'Club', 'Garden', 'Loft', 'Studio'])}`;
  const origin = new URL(url).origin;
  const upcoming = random.int(21, 30);
  const past = random.int(21, 30);
  return Array.from({ length: upcoming + past }, (_, index) => {
    const eventRandom = new SeededRandom(`socialnet-event:${url}:${index}`);
    const start = index === 0
      ? quarterHour(SANDBOX_NOW - 2 * HOUR) // in progress: counts as upcoming until it ends
      : index < upcoming
        ? quarterHour(SANDBOX_NOW + eventRandom.int(1, 150 * 24) * HOUR)
        : quarterHour(SANDBOX_NOW - eventRandom.int(2 * 24, 300 * 24) * HOUR);
    return event(eventRandom, origin, start, index === 0, home, venue);
  });
}

function event(random: SeededRandom, origin: string, start: number, inProgress: boolean, home: (typeof CITIES)[number], venue: string): SocialEvent {
  const id = random.digits(16);
  const isOnline = random.orNull(0.05, () => random.chance(0.15));
  const place = isOnline === true ? null : random.chance(0.8) ? home : random.pick(CITIES);
  return {
    id,
    url: `${origin}/events/${id}`,
    name: `${random.title(1, 3)} ${random.pick(KINDS)}`,
    start_time: isoSeconds(start),
    end_time: inProgress ? isoSeconds(start + 5 * HOUR) : random.orNull(0.2, () => isoSeconds(start + random.int(4, 24) * 15 * 60_000)),
    timezone: place === null ? random.orNull(0.5, () => 'UTC') : place.timezone,
    is_online: isOnline,
    description: random.orNull(0.1, () => `${random.sentence(8, 16)} ${random.sentence(6, 12)}`),
    location: place === null ? null : random.orNull(0.05, () => ({
      name: place === home ? venue : `${random.title(1, 2)} Hall`,
      address: random.orNull(0.2, () => `${place.street} ${random.int(1, 120)}`),
      city: place.city,
      country: place.country,
      latitude: random.orNull(0.2, () => round(place.latitude + random.float(-0.05, 0.05, 4), 4)),
      longitude: random.orNull(0.2, () => round(place.longitude + random.float(-0.05, 0.05, 4), 4)),
    })),
    counts: random.orNull(0.1, () => ({ going: random.orNull(0.05, () => random.int(0, 800)), interested: random.orNull(0.2, () => random.int(0, 5000)) })),
  };
}

function quarterHour(epochMs: number): number {
  return Math.floor(epochMs / (15 * 60_000)) * 15 * 60_000;
}
