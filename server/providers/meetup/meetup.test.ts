import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino, { type Logger } from 'pino';
import { describeErrors, validatorAt } from '../../../contract-tests/contract.ts';
import { errorCatalog } from '../../../generated/errors.ts';
import { ConfigError } from '../../config.ts';
import { capturingLogger, json, startFakeUpstream, type FakeAnswer, type FakeUpstream } from '../../test-support/fake-upstream.ts';
import { failureCases, TEST_LIMITS, type FailureCase } from '../search/search-adapter.cases.ts';
import { ProviderError, type DataProvider } from '../types.ts';
import { createMeetupProvider, GROUP_EVENTS_QUERY, meetupConfig, MEETUP_DEFAULT_URL } from './index.ts';
import upcoming from './fixtures/upcoming.json' with { type: 'json' };
import past from './fixtures/past.json' with { type: 'json' };
import noGroup from './fixtures/no-group.json' with { type: 'json' };
import rateLimited from './fixtures/rate-limited.json' with { type: 'json' };
import unauthorized from './fixtures/unauthorized.json' with { type: 'json' };
import invalidQuery from './fixtures/invalid-query.json' with { type: 'json' };

const TOKEN = 'meetup-test-token-0123456789';
const GROUP = 'https://www.meetup.com/berlinjs/';
const validate = validatorAt('/components/schemas/SocialEventsPage');

let fake: FakeUpstream;
beforeAll(async () => { fake = await startFakeUpstream(); });
afterAll(async () => { await fake.close(); });

function provider(logger: Logger = pino({ level: 'silent' })): DataProvider {
  return createMeetupProvider({ url: `${fake.baseUrl}/gql-ext`, accessToken: TOKEN }, { logger, limits: TEST_LIMITS });
}

async function list(query: Record<string, unknown>, answer: FakeAnswer = json(200, upcoming)) {
  fake.answer = answer;
  fake.requests.length = 0;
  const data = await provider().fetch({ operationId: 'listSocialEvents', query, signal: new AbortController().signal });
  const valid = validate(data);
  expect(describeErrors(validate.errors), 'the answer is valid against SocialEventsPage').toEqual([]);
  expect(valid).toBe(true);
  return { data: data as { source_url: string; events: Record<string, unknown>[]; next_cursor: string | null }, asked: fake.requests };
}

async function failure(query: Record<string, unknown>, answer: FakeAnswer = json(200, upcoming), logger?: Logger): Promise<ProviderError> {
  fake.answer = answer;
  fake.requests.length = 0;
  const error = await provider(logger).fetch({ operationId: 'listSocialEvents', query, signal: new AbortController().signal }).catch((reason: unknown) => reason);
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}

describe('the meetup adapter: request and mapping', () => {
  it('POSTs groupByUrlname → events(first: 20, filter) to {MEETUP_API_URL} with the Bearer token, upcoming as status ACTIVE', async () => {
    const { asked } = await list({ url: GROUP });
    expect(asked).toHaveLength(1);
    expect([asked[0]!.method, asked[0]!.url, asked[0]!.headers.authorization, asked[0]!.headers['content-type']]).toEqual(['POST', '/gql-ext', `Bearer ${TOKEN}`, 'application/json']);
    expect(asked[0]!.body).toEqual({
      query: GROUP_EVENTS_QUERY,
      variables: { urlname: 'berlinjs', first: 20, status: ['ACTIVE'], withDescription: false, withCounts: false },
    });
  });

  it('maps every field of the documented upcoming page with include=description,location,counts', async () => {
    const { data } = await list({ url: GROUP, include: 'description,location,counts' });
    expect(data.source_url).toBe(GROUP);
    expect(data.events).toEqual([
      {
        id: '304512345', url: 'https://www.meetup.com/berlinjs/events/304512345/', name: 'BerlinJS December: Signals in practice',
        start_time: '2026-12-03T18:00:00Z', end_time: '2026-12-03T20:30:00Z', timezone: null, is_online: false,
        description: 'Two talks on signals in UI frameworks, then pizza. Doors open at 18:30.',
        location: { name: 'co.up Community Space', address: 'Adalbertstraße 8', city: 'Berlin', country: 'Germany', latitude: 52.50141, longitude: 13.41932 },
        counts: { going: 87, interested: null },
      },
      {
        id: '304512811', url: 'https://www.meetup.com/berlinjs/events/304512811/', name: 'BerlinJS online: Streaming SSR Q&A',
        start_time: '2026-12-10T17:00:00Z', end_time: '2026-12-10T18:00:00Z', timezone: null, is_online: true,
        description: null, location: null, counts: { going: 41, interested: null },
      },
      {
        id: '304512987', url: 'https://www.meetup.com/berlinjs/events/304512987/', name: 'BerlinJS holiday hack night',
        start_time: '2026-12-17T18:00:00Z', end_time: null, timezone: null, is_online: null,
        description: 'Bring a project, or join one.', location: null, counts: { going: 0, interested: null },
      },
    ]);
  });

  it('include asks Meetup for description and rsvps only when named, and fields not included are null', async () => {
    const { data, asked } = await list({ url: GROUP, include: 'location' });
    expect(asked[0]!.body).toMatchObject({ variables: { withDescription: false, withCounts: false } });
    expect(data.events.map((event) => [event.description, event.counts])).toEqual([[null, null], [null, null], [null, null]]);
    expect(data.events[0]!.location).toMatchObject({ name: 'co.up Community Space' });
    const withCounts = await list({ url: GROUP, include: 'counts,description' });
    expect(withCounts.asked[0]!.body).toMatchObject({ variables: { withDescription: true, withCounts: true } });
    expect(withCounts.data.events.map((event) => event.location)).toEqual([null, null, null]);
  });

  it('the past page: status PAST, most recent first, a venue without address or coordinates keeps them null, next_cursor null when hasNextPage is false', async () => {
    const { data, asked } = await list({ url: GROUP, time: 'past', include: 'location' }, json(200, past));
    expect(asked[0]!.body).toMatchObject({ variables: { status: ['PAST'] } });
    expect(data.events.map((event) => event.id)).toEqual(['304111222', '304100001']);
    expect(data.events[0]!.location).toEqual({ name: 'Mobile.de Atrium', address: null, city: 'Berlin', country: 'Germany', latitude: null, longitude: null });
    expect(data.next_cursor).toBeNull();
  });

  it('time=all asks ACTIVE and PAST, latest start first; since and until become afterDateTime and beforeDateTime (until inclusive)', async () => {
    const { data, asked } = await list({ url: GROUP, time: 'all', since: '2026-12-01', until: '2026-12-10' });
    expect(asked[0]!.body).toMatchObject({ variables: { status: ['ACTIVE', 'PAST'], afterDateTime: '2026-12-01T00:00:00.000Z', beforeDateTime: '2026-12-11T00:00:00.000Z' } });
    expect(data.events.map((event) => event.id)).toEqual(['304512811', '304512345']);
  });

  it("Meetup's endCursor is wrapped: the next page sends it back as after, and that cursor on another query is 422", async () => {
    const first = await list({ url: GROUP });
    expect(first.data.next_cursor).not.toBeNull();
    expect(first.data.next_cursor).not.toContain('MzA0NTEyOTg3OjE3OTgzODM2MDAwMDA=');
    const second = await list({ url: GROUP, cursor: first.data.next_cursor }, json(200, past));
    expect(second.asked[0]!.body).toMatchObject({ variables: { after: 'MzA0NTEyOTg3OjE3OTgzODM2MDAwMDA=' } });
    const error = await failure({ url: GROUP, time: 'past', cursor: first.data.next_cursor });
    expect([error.code, error.message]).toEqual(['invalid_parameters', 'Invalid parameters: query.cursor was not issued for this list and these parameters.']);
    expect(fake.requests).toHaveLength(0);
  });

  it.each([
    ['https://meetup.com/berlinjs', 'berlinjs'],
    ['https://www.meetup.com/de-DE/berlinjs/', 'berlinjs'],
    ['https://www.meetup.com/berlinjs/events/', 'berlinjs'],
    ['https://www.meetup.com/Berlin-Hikers/events/past/', 'Berlin-Hikers'],
  ])('the group URL %s asks for urlname %s', async (url, urlname) => {
    const { asked } = await list({ url });
    expect(asked[0]!.body).toMatchObject({ variables: { urlname } });
  });
});

describe('the meetup adapter: URLs it cannot serve (422, no upstream call)', () => {
  it.each([
    ['https://socialnet.example/kulturbrauerei.berlin', 'Invalid parameters: query.url: socialnet/events serves meetup.com group URLs; socialnet.example is not one.'],
    ['https://meetup.com.evil.example/berlinjs/', 'Invalid parameters: query.url: socialnet/events serves meetup.com group URLs; meetup.com.evil.example is not one.'],
    ['https://www.meetup.com/', 'Invalid parameters: query.url: https://www.meetup.com/ is not a Meetup group URL (https://www.meetup.com/<group>/, or its /events/ page).'],
    ['https://www.meetup.com/find/?keywords=js', 'Invalid parameters: query.url: https://www.meetup.com/find/?keywords=js is not a Meetup group URL (https://www.meetup.com/<group>/, or its /events/ page).'],
    ['https://www.meetup.com/berlinjs/events/304512345/', 'Invalid parameters: query.url: https://www.meetup.com/berlinjs/events/304512345/ is not a Meetup group URL (https://www.meetup.com/<group>/, or its /events/ page).'],
  ])('%s', async (url, message) => {
    const error = await failure({ url });
    expect([errorCatalog[error.code].status, error.code, error.message]).toEqual([422, 'invalid_parameters', message]);
    expect(fake.requests).toHaveLength(0);
  });
});

describe('the meetup adapter: failures', () => {
  it.each(failureCases('Meetup', { headers: { 'Retry-After': '60' }, retryAfter: '60' }))('$name', async (failureCase: FailureCase) => {
    const error = await failure({ url: GROUP }, failureCase.answer);
    expect([errorCatalog[error.code].status, error.code, error.message]).toEqual([failureCase.status, failureCase.code, failureCase.message]);
    if (failureCase.headers) expect(error.headers).toEqual(failureCase.headers);
    expect(error.message).not.toContain(TOKEN);
  });

  it('groupByUrlname: null (no such group) is 404 upstream_not_found', async () => {
    const error = await failure({ url: 'https://www.meetup.com/no-such-group-4711/' }, json(200, noGroup));
    expect([errorCatalog[error.code].status, error.code, error.message]).toEqual([404, 'upstream_not_found', 'Meetup found nothing by that name.']);
  });

  it('a GraphQL UNAUTHENTICATED error in a 200 is 503 provider_unavailable, logged at error level without the token', async () => {
    const { logger, lines, text } = capturingLogger();
    const error = await failure({ url: GROUP }, json(200, unauthorized), logger);
    expect([errorCatalog[error.code].status, error.code]).toEqual([503, 'provider_unavailable']);
    expect(lines().filter((line) => line.level === 50).map((line) => line.provider)).toEqual(['Meetup']);
    expect(text()).not.toContain(TOKEN);
  });

  it('a GraphQL RATE_LIMITED error in a 200 is 503 upstream_rate_limited with Retry-After from extensions.resetAt', async () => {
    const resetAt = new Date(Date.now() + 30_000).toISOString();
    const error = await failure({ url: GROUP }, json(200, { ...rateLimited, errors: [{ ...rateLimited.errors[0]!, extensions: { ...rateLimited.errors[0]!.extensions, resetAt } }] }));
    expect([errorCatalog[error.code].status, error.code]).toEqual([503, 'upstream_rate_limited']);
    expect(Number(error.headers['Retry-After'])).toBeGreaterThanOrEqual(29);
    expect(Number(error.headers['Retry-After'])).toBeLessThanOrEqual(31);
  });

  it('other GraphQL errors without data are 502 upstream_failed naming them', async () => {
    const error = await failure({ url: GROUP }, json(200, invalidQuery));
    expect([error.code, error.message]).toEqual(['upstream_failed', 'Meetup answered errors: Cannot query field "venues" on type "Event".']);
  });

  it('an event without a dateTime is 502 upstream_failed, not an invented time', async () => {
    const broken = structuredClone(upcoming);
    delete (broken.data.groupByUrlname.events.edges[0]!.node as Record<string, unknown>).dateTime;
    const error = await failure({ url: GROUP }, json(200, broken));
    expect([error.code, error.message]).toEqual(['upstream_failed', 'Meetup answered an event without id, title, eventUrl or dateTime.']);
  });
});

describe('meetupConfig', () => {
  it('is off without MEETUP_ACCESS_TOKEN, on with it at the official URL by default, and refuses a URL without a token', () => {
    expect(meetupConfig({})).toBeNull();
    expect(meetupConfig({ MEETUP_ACCESS_TOKEN: TOKEN })).toEqual({ url: MEETUP_DEFAULT_URL, accessToken: TOKEN });
    expect(meetupConfig({ MEETUP_ACCESS_TOKEN: TOKEN, MEETUP_API_URL: 'http://127.0.0.1:9000/gql-ext/' })).toEqual({ url: 'http://127.0.0.1:9000/gql-ext', accessToken: TOKEN });
    expect(() => meetupConfig({ MEETUP_API_URL: 'http://127.0.0.1:9000/gql-ext' })).toThrow(/^MEETUP_API_URL is set but MEETUP_ACCESS_TOKEN is not/);
    expect(() => meetupConfig({ MEETUP_ACCESS_TOKEN: 'two words' })).toThrow(ConfigError);
    expect(() => meetupConfig({ MEETUP_ACCESS_TOKEN: TOKEN, MEETUP_API_URL: 'meetup' })).toThrow(/^MEETUP_API_URL must be an http\(s\) URL/);
  });
});
