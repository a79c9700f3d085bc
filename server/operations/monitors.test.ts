/** Monitors as real records: lifecycle, pagination, the rules across fields, and what live keys cannot have yet. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test-support/test-server.ts';

describe('monitors', () => {
  let server: TestServer;
  beforeAll(async () => (server = await startTestServer()));
  afterAll(() => server.close());

  it('goes through create, get, list, pause, resume, reschedule and delete, free of charge', async () => {
    const { secret, id } = await server.key({ credits: 0 });
    const created = await server.call('/web/monitors', { method: 'POST', key: secret, body: { url: 'https://example.com/pricing', name: 'Pricing' } });
    expect(created.status).toBe(200);
    const monitor = created.body.data.monitor;
    expect(monitor).toMatchObject({ name: 'Pricing', mode: 'scrape', cadence_minutes: 60, timezone: 'UTC', status: 'active', last_check: null, next_check_at: monitor.created_at });

    const path = `/web/monitors/${monitor.id}`;
    expect((await server.call(path, { key: secret })).body.data.monitor).toEqual(monitor);

    server.clock.advance(1000);
    const paused = await server.call(path, { method: 'PATCH', key: secret, body: { status: 'paused' } });
    expect(paused.body.data.monitor).toMatchObject({ status: 'paused', next_check_at: null });
    expect(paused.body.data.monitor.updated_at).not.toBe(monitor.updated_at);

    const resumed = await server.call(path, { method: 'PATCH', key: secret, body: { status: 'active', schedule_text: 'daily at 09:30', timezone: 'Europe/Berlin' } });
    expect(resumed.body.data.monitor).toMatchObject({ status: 'active', cadence_minutes: null, schedule_text: 'daily at 09:30', schedule_cron: null, timezone: 'Europe/Berlin' });
    expect(resumed.body.data.monitor.next_check_at).not.toBeNull();

    const deleted = await server.call(path, { method: 'DELETE', key: secret });
    expect(deleted.body.data).toMatchObject({ deleted: true, monitor: { id: monitor.id } });
    expect((await server.call(path, { key: secret })).body.error.code).toBe('resource_not_found');
    expect(await server.stores.ledger.balance(id)).toBe(0);
  });

  it('lists newest first with an opaque cursor, null at the end, and refuses a foreign cursor', async () => {
    const { secret } = await server.key();
    const ids = [];
    for (const page of ['a', 'b', 'c']) {
      server.clock.advance(1000);
      ids.push((await server.call('/web/monitors', { method: 'POST', key: secret, body: { url: `https://example.com/${page}` } })).body.data.monitor.id);
    }
    const first = await server.call('/web/monitors?limit=2', { key: secret });
    expect(first.body.data.monitors.map((monitor: { id: string }) => monitor.id)).toEqual([ids[2], ids[1]]);
    const second = await server.call(`/web/monitors?limit=2&cursor=${first.body.data.next_cursor}`, { key: secret });
    expect(second.body.data.monitors.map((monitor: { id: string }) => monitor.id)).toEqual([ids[0]]);
    expect(second.body.data.next_cursor).toBeNull();

    const other = (await server.key()).secret;
    const foreign = await server.call(`/web/monitors?cursor=${first.body.data.next_cursor}`, { key: other });
    expect([foreign.status, foreign.body.error.code]).toEqual([422, 'invalid_parameters']);
  });

  it('hides other keys\' monitors', async () => {
    const owner = (await server.key()).secret;
    const id = (await server.call('/web/monitors', { method: 'POST', key: owner, body: { url: 'https://example.com/mine' } })).body.data.monitor.id;
    const stranger = await server.call(`/web/monitors/${id}`, { key: (await server.key()).secret });
    expect([stranger.status, stranger.body.error.code]).toEqual([404, 'resource_not_found']);
  });

  it.each([
    { body: { url: 'https://example.com', cadence_minutes: 30, schedule_cron: '0 9 * * 1' }, fragment: 'at most one of body.cadence_minutes' },
    { body: { url: 'https://example.com', mode: 'search' }, fragment: 'body.query is required with mode search' },
    { body: { url: 'https://example.com', query: 'pricing' }, fragment: 'body.query is only accepted with mode search' },
    { body: { url: 'https://example.com', judge_enabled: true }, fragment: 'body.judge_enabled needs a body.goal' },
    { body: { url: 'https://example.com', timezone: 'Mars/Olympus_Mons' }, fragment: 'is not an IANA time zone' },
    { body: { url: 'https://example.com', schedule_text: 'every 2 minutes' }, fragment: 'must be between 5 minutes and 7 days' },
  ])('refuses $fragment with 422', async ({ body, fragment }) => {
    const answer = await server.call('/web/monitors', { method: 'POST', key: (await server.key()).secret, body });
    expect(answer.status).toBe(422);
    expect(answer.body.error.message).toContain(fragment);
  });

  it('answers 503 capability_unavailable for search monitors of a live key', async () => {
    const answer = await server.call('/web/monitors', { method: 'POST', key: (await server.key({ sandbox: false })).secret, body: { url: 'https://example.com', mode: 'search', query: 'pricing' } });
    expect([answer.status, answer.body.error.code]).toEqual([503, 'capability_unavailable']);
  });
});
