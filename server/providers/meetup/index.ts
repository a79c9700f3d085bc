/**
 * `socialnet/events` on Meetup's GraphQL API: `POST {MEETUP_API_URL}` with the query below, one
 * page of 20 events of the group a meetup.com group URL names, Meetup's `endCursor` wrapped in the
 * service's cursor (server/upstream/upstream-cursor.ts).
 */
import type { Logger } from 'pino';
import type { components } from '../../../generated/types.ts';
import { UpstreamClient, type UpstreamClientConfig } from '../../upstream/upstream-client.ts';
import { unwrapCursor, wrapCursor } from '../../upstream/upstream-cursor.ts';
import { upstreamFailure, type UpstreamFailure } from '../../upstream/upstream-failure.ts';
import { ProviderError, type DataProvider, type ProviderCall } from '../types.ts';
import type { MeetupConfig } from './config.ts';
import { socialEvent, type Include, type MeetupEvent } from './events.ts';
import { groupUrlname } from './group-url.ts';

export { meetupConfig, MEETUP_DEFAULT_URL, type MeetupConfig } from './config.ts';

export const MEETUP_NAME = 'Meetup';
const DEFAULT_LIMITS = { timeoutMs: 15_000, maxResponseBytes: 5 * 1024 * 1024, maxInFlight: 4 };
/** The contract's page size. */
const PAGE_SIZE = 20;
const DAY_MS = 86_400_000;

/** The one query sent: the group's events, filtered by status and start, with the optional fields asked only when included. */
export const GROUP_EVENTS_QUERY = `query groupEvents($urlname: String!, $first: Int!, $after: String, $status: [EventStatus!], $afterDateTime: DateTime, $beforeDateTime: DateTime, $withDescription: Boolean!, $withCounts: Boolean!) {
  groupByUrlname(urlname: $urlname) {
    events(first: $first, after: $after, filter: { status: $status, afterDateTime: $afterDateTime, beforeDateTime: $beforeDateTime }) {
      pageInfo { hasNextPage endCursor }
      edges {
        node {
          id
          title
          eventUrl
          dateTime
          duration
          description @include(if: $withDescription)
          venues { name address city country lat lon venueType }
          rsvps @include(if: $withCounts) { totalCount }
        }
      }
    }
  }
}`;

/** Meetup's statuses for the contract's `time`: `ACTIVE` is upcoming and in progress, `PAST` has ended. */
const STATUSES = { upcoming: ['ACTIVE'], past: ['PAST'], all: ['ACTIVE', 'PAST'] } as const;

/** GraphQL error codes (`errors[].extensions.code`) and the failure of the table each stands for. */
const AUTH_CODES = new Set(['UNAUTHENTICATED', 'UNAUTHORIZED', 'FORBIDDEN', 'AUTH_ERROR']);
const RATE_CODES = new Set(['RATE_LIMITED', 'RATE_LIMIT_EXCEEDED', 'TOO_MANY_REQUESTS']);
const NOT_FOUND_CODES = new Set(['NOT_FOUND']);

interface GraphqlError {
  message?: string;
  extensions?: { code?: string; resetAt?: string };
}
interface GroupEventsAnswer {
  data?: { groupByUrlname?: { events?: { pageInfo?: { hasNextPage?: boolean; endCursor?: string | null }; edges?: { node?: MeetupEvent }[] } } | null } | null;
  errors?: GraphqlError[];
}

export interface MeetupDeps {
  logger: Logger;
  limits?: Partial<Pick<UpstreamClientConfig, 'timeoutMs' | 'maxResponseBytes' | 'maxInFlight'>>;
}

export function createMeetupProvider(config: MeetupConfig, deps: MeetupDeps): DataProvider {
  const client = new UpstreamClient({
    name: MEETUP_NAME, baseUrl: config.url, ...DEFAULT_LIMITS, ...deps.limits, headers: { authorization: `Bearer ${config.accessToken}` },
  }, deps.logger);
  // The endpoint is the base URL itself (`/gql-ext`); a base URL without a path posts to `/`.
  const path = new URL(config.url).pathname.replace(/\/+$/, '') === '' ? '/' : '';
  const fail = (failure: UpstreamFailure): ProviderError => upstreamFailure(MEETUP_NAME, failure, deps.logger);

  return {
    name: 'meetup',
    close: () => client.close(),
    async fetch(call: ProviderCall): Promise<Record<string, unknown>> {
      if (call.operationId !== 'listSocialEvents') throw new ProviderError('capability_unavailable', `The meetup provider serves socialnet/events only, not ${call.operationId}.`);
      const url = String(call.query.url);
      const variables = groupEventsVariables(call.query, groupUrlname(url), unwrapCursor('listSocialEvents', call.query));
      const answer = await client.request({ method: 'POST', path, body: { query: GROUP_EVENTS_QUERY, variables }, signal: call.signal });
      const body = answer.body as GroupEventsAnswer | null;
      if (body === null || typeof body !== 'object') throw fail({ kind: 'unreadable', what: 'an empty body' });
      const failure = graphqlFailure(body.errors);
      if (failure) throw fail(failure);
      if (body.data?.groupByUrlname === null) throw fail({ kind: 'not_found' });
      const events = body.data?.groupByUrlname?.events;
      if (!events || !Array.isArray(events.edges)) {
        throw fail({ kind: 'unreadable', what: Array.isArray(body.errors) && body.errors.length > 0 ? `errors: ${body.errors.map((error) => String(error?.message ?? '').replace(/[.\s]+$/, '')).join('; ')}` : 'JSON without groupByUrlname.events' });
      }
      return page(call.query, url, events.edges.map((edge) => edge.node ?? {}), events.pageInfo);
    },
  };

  function page(query: Record<string, unknown>, url: string, nodes: MeetupEvent[], pageInfo: { hasNextPage?: boolean; endCursor?: string | null } | undefined): Record<string, unknown> {
    const include: Include = new Set(String(query.include ?? '').split(',').filter((name) => name !== '') as ('description' | 'location' | 'counts')[]);
    const time = timeOf(query);
    const [since, until] = [dateMs(query.since), dateMs(query.until)];
    const events = nodes.map((node) => socialEvent(node, include));
    if (events.includes(undefined)) throw fail({ kind: 'unreadable', what: 'an event without id, title, eventUrl or dateTime' });
    const kept = events
      .filter((event) => event !== undefined)
      .filter((event) => (since === undefined || Date.parse(event.start_time) >= since) && (until === undefined || Date.parse(event.start_time) < until + DAY_MS))
      .sort((a, b) => (time === 'upcoming' ? a.start_time.localeCompare(b.start_time) : b.start_time.localeCompare(a.start_time)));
    const more = pageInfo?.hasNextPage === true && typeof pageInfo.endCursor === 'string' && pageInfo.endCursor !== '';
    const data: components['schemas']['SocialEventsPage'] = {
      source_url: url,
      events: kept.slice(0, PAGE_SIZE),
      next_cursor: more ? wrapCursor('listSocialEvents', query, pageInfo.endCursor!) : null,
    };
    return data;
  }
}

/** The variables of GROUP_EVENTS_QUERY for this call. */
export function groupEventsVariables(query: Record<string, unknown>, urlname: string, after: string | undefined): Record<string, unknown> {
  const include = String(query.include ?? '').split(',');
  const since = dateMs(query.since);
  const until = dateMs(query.until);
  return {
    urlname,
    first: PAGE_SIZE,
    ...(after === undefined ? {} : { after }),
    status: STATUSES[timeOf(query)],
    ...(since === undefined ? {} : { afterDateTime: new Date(since).toISOString() }),
    ...(until === undefined ? {} : { beforeDateTime: new Date(until + DAY_MS).toISOString() }),
    withDescription: include.includes('description'),
    withCounts: include.includes('counts'),
  };
}

function timeOf(query: Record<string, unknown>): keyof typeof STATUSES {
  const time = query.time;
  return time === 'past' || time === 'all' ? time : 'upcoming';
}

/** A `YYYY-MM-DD` parameter (the contract validated it) at 00:00 UTC. */
function dateMs(value: unknown): number | undefined {
  return typeof value === 'string' && value !== '' ? Date.parse(`${value}T00:00:00Z`) : undefined;
}

/**
 * A GraphQL `errors[]` in a 200 as the failure it stands for: a refused token as a 401 (503
 * provider_unavailable, logged), a rate limit as a 429 (503 upstream_rate_limited, Retry-After
 * from `extensions.resetAt`), NOT_FOUND as not found; other errors are read with the data.
 */
export function graphqlFailure(errors: GraphqlError[] | undefined): UpstreamFailure | undefined {
  if (!Array.isArray(errors)) return undefined;
  const codes = errors.map((error) => String(error?.extensions?.code ?? '').toUpperCase());
  if (codes.some((code) => AUTH_CODES.has(code))) return { kind: 'status', status: 401, headers: {} };
  const limited = errors.find((_, index) => RATE_CODES.has(codes[index]!));
  if (limited) return { kind: 'status', status: 429, headers: limited.extensions?.resetAt ? { 'retry-after': limited.extensions.resetAt } : {} };
  if (codes.some((code) => NOT_FOUND_CODES.has(code))) return { kind: 'not_found' };
  return undefined;
}
