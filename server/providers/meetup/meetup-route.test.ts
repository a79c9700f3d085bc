/**
 * `GET /v1/socialnet/events` for a live key through the whole server, served by the meetup adapter
 * on a fake Meetup: the 15-minute cache on live data, `Cache-Control: no-cache`, and the URLs the
 * adapter cannot serve (422, uncharged, no upstream call).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startFakeUpstream, type FakeUpstream } from '../../test-support/fake-upstream.ts';
import { startTestServer, type TestServer } from '../../test-support/test-server.ts';
import noGroup from './fixtures/no-group.json' with { type: 'json' };
import upcoming from './fixtures/upcoming.json' with { type: 'json' };

const EVENTS = '/socialnet/events?url=https://www.meetup.com/berlinjs/&include=location,counts';

describe('socialnet/events on the meetup adapter, through the server', () => {
  let fake: FakeUpstream;
  let server: TestServer;
  beforeAll(async () => {
    fake = await startFakeUpstream(json(200, upcoming));
    server = await startTestServer({ upstreams: { meetup: { url: `${fake.baseUrl}/gql-ext`, accessToken: 'route-test-token' } } });
  });
  afterAll(async () => {
    await server.close();
    await fake.close();
  });

  it('live data is cached for 15 minutes: the repeat is a HIT without an upstream call, Cache-Control: no-cache asks Meetup again, and after 15 minutes it is a MISS', async () => {
    const { secret, id } = await server.key({ credits: 10, sandbox: false });
    fake.requests.length = 0;
    const first = await server.call(EVENTS, { key: secret });
    expect([first.status, first.headers.get('x-cache'), first.body.cached, fake.requests.length]).toEqual([200, 'MISS', false, 1]);
    expect(first.body.data.events.map((event: { id: string }) => event.id)).toEqual(['304512345', '304512811', '304512987']);

    const repeat = await server.call(EVENTS, { key: secret });
    expect([repeat.status, repeat.headers.get('x-cache'), repeat.body.cached, fake.requests.length]).toEqual([200, 'HIT', true, 1]);
    expect(repeat.body.data).toEqual(first.body.data);

    const fresh = await server.call(EVENTS, { key: secret, headers: { 'Cache-Control': 'no-cache' } });
    expect([fresh.status, fresh.headers.get('x-cache'), fresh.body.cached, fake.requests.length]).toEqual([200, 'BYPASS', false, 2]);

    server.clock.advance(15 * 60_000);
    const expired = await server.call(EVENTS, { key: secret });
    expect([expired.status, expired.headers.get('x-cache'), fake.requests.length]).toEqual([200, 'MISS', 3]);
    expect(await server.stores.ledger.balance(id)).toBe(6);
  });

  it.each([
    ['a URL on another host', 'https://socialnet.example/kulturbrauerei.berlin', 'socialnet/events serves meetup.com group URLs; socialnet.example is not one'],
    ['a meetup.com URL that is not a group URL', 'https://www.meetup.com/find/', 'https://www.meetup.com/find/ is not a Meetup group URL'],
  ])('%s answers 422 invalid_parameters, uncharged, without asking Meetup', async (_name, url, message) => {
    const { secret, id } = await server.key({ credits: 10, sandbox: false });
    fake.requests.length = 0;
    const answer = await server.call(`/socialnet/events?url=${encodeURIComponent(url)}`, { key: secret });
    expect([answer.status, answer.body.error.code, answer.headers.get('x-credits-used'), fake.requests.length]).toEqual([422, 'invalid_parameters', '0', 0]);
    expect(answer.body.error.message).toContain(message);
    expect(await server.stores.ledger.balance(id)).toBe(10);
  });

  it('a group Meetup does not know (groupByUrlname: null) answers 404 upstream_not_found, uncharged', async () => {
    const { secret, id } = await server.key({ credits: 10, sandbox: false });
    fake.answer = json(200, noGroup);
    const answer = await server.call('/socialnet/events?url=https://www.meetup.com/no-such-group-4711/', { key: secret });
    fake.answer = json(200, upcoming);
    expect([answer.status, answer.body.error.code, answer.body.error.message, answer.headers.get('x-credits-used')]).toEqual([404, 'upstream_not_found', 'Meetup found nothing by that name.', '0']);
    expect(await server.stores.ledger.balance(id)).toBe(10);
  });

  it('a sandbox key still answers from the sandbox, for any page URL', async () => {
    const { secret } = await server.key({ credits: 10, sandbox: true });
    fake.requests.length = 0;
    const answer = await server.call('/socialnet/events?url=https://socialnet.example/kulturbrauerei.berlin', { key: secret });
    expect([answer.status, fake.requests.length]).toEqual([200, 0]);
  });
});
