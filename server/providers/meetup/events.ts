/**
 * Meetup's `Event` nodes (https://www.meetup.com/graphql/guide/) as the contract's SocialEvent:
 * times in UTC, the end from `duration`, the place from the first of `venues`, the responses from
 * `rsvps.totalCount`; `description`, `location` and `counts` null unless `include` names them.
 */
import type { components } from '../../../generated/types.ts';

type SocialEvent = components['schemas']['SocialEvent'];
type SocialEventLocation = components['schemas']['SocialEventLocation'];

/** The fields of an `Event` node the adapter asks for. */
export interface MeetupEvent {
  id?: string;
  title?: string;
  eventUrl?: string;
  /** ISO 8601 with the event's offset: `2026-10-24T18:00:00+02:00`. */
  dateTime?: string;
  /** ISO 8601 duration: `PT2H30M`. */
  duration?: string | null;
  description?: string | null;
  venues?: MeetupVenue[] | null;
  rsvps?: { totalCount?: number | null } | null;
}

export interface MeetupVenue {
  name?: string | null;
  address?: string | null;
  city?: string | null;
  /** A lower-case ISO 3166 code: `de`. */
  country?: string | null;
  lat?: number | null;
  lon?: number | null;
  /** `online` for an online event's venue. */
  venueType?: string | null;
}

export type Include = ReadonlySet<'description' | 'location' | 'counts'>;

/** The contract's event, or undefined when the node lacks what every event has (id, title, eventUrl, a readable dateTime). */
export function socialEvent(node: MeetupEvent, include: Include): SocialEvent | undefined {
  const start = typeof node.dateTime === 'string' ? Date.parse(node.dateTime) : Number.NaN;
  if (!node.id || !node.title || !node.eventUrl || Number.isNaN(start)) return undefined;
  const durationMs = isoDurationMs(node.duration);
  const venue = node.venues?.[0] ?? null;
  const isOnline = venue === null ? null : venue.venueType?.toLowerCase() === 'online';
  return {
    id: node.id,
    url: node.eventUrl,
    name: node.title,
    start_time: utc(start),
    end_time: durationMs === undefined ? null : utc(start + durationMs),
    timezone: null,
    is_online: isOnline,
    description: include.has('description') ? node.description || null : null,
    location: include.has('location') && venue !== null && isOnline === false ? location(venue) : null,
    counts: include.has('counts') && typeof node.rsvps?.totalCount === 'number' ? { going: node.rsvps.totalCount, interested: null } : null,
  };
}

function location(venue: MeetupVenue): SocialEventLocation {
  return {
    name: venue.name || null,
    address: venue.address || null,
    city: venue.city || null,
    country: countryName(venue.country),
    latitude: coordinate(venue.lat, 90),
    longitude: coordinate(venue.lon, 180),
  };
}

/** `de` → `Germany` (the contract names countries); anything that is not a region code stays as Meetup wrote it. */
function countryName(code: string | null | undefined): string | null {
  if (!code) return null;
  if (!/^[a-z]{2}$/i.test(code)) return code;
  return new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' }).of(code.toUpperCase()) ?? code;
}

/** Meetup writes 0 for a coordinate it does not have (an exact 0 is in the ocean or on the equator line): null. */
function coordinate(value: number | null | undefined, bound: number): number | null {
  return typeof value === 'number' && value !== 0 && Math.abs(value) <= bound ? value : null;
}

/** `PT2H30M`, `P1DT2H` in ms; undefined when missing, zero or unreadable. */
export function isoDurationMs(duration: string | null | undefined): number | undefined {
  const match = /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/.exec(duration ?? '');
  if (match === null || duration === 'P' || duration === 'PT') return undefined;
  const [, days = '0', hours = '0', minutes = '0', seconds = '0'] = match;
  const ms = ((Number(days) * 24 + Number(hours)) * 60 + Number(minutes)) * 60_000 + Number(seconds) * 1000;
  return ms > 0 ? ms : undefined;
}

/** RFC 3339 UTC without fractions: `2026-10-24T16:00:00Z`. */
function utc(epochMs: number): string {
  return new Date(epochMs).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
