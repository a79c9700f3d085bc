/** Monitors checked on schedule against a local page that changes: baseline, unchanged, changed with a diff, failed, paused, pruned. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test-support/test-server.ts';
import { nextCheckAt, parseScheduleText } from './schedule.ts';
import { MonitorScheduler } from './scheduler.ts';

describe('the monitor scheduler', () => {
  let site: Server;
  let origin: string;
  let price = '$49';
  let broken = false;
  let server: TestServer;
  let scheduler: MonitorScheduler;
  const HOUR = 60 * 60 * 1000;

  beforeAll(async () => {
    site = createServer((_request, response) => {
      response.writeHead(broken ? 500 : 200, { 'content-type': 'text/html' });
      response.end(`<html><body><article><h1>Pricing</h1><p>The team plan costs ${price} a month, billed yearly, with every feature included for up to ten seats.</p></article></body></html>`);
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    server = await startTestServer({ allowPrivateNetwork: true, web: {} });
    scheduler = new MonitorScheduler(server.stores, server.clock, server.providers);
  });
  afterAll(async () => {
    await server.close();
    await new Promise<void>((resolve) => site.close(() => resolve()));
  });

  it('checks on its cadence: baseline, unchanged, changed with a unified diff and an event, failed with an event', async () => {
    const { secret, id: keyId } = await server.key({ credits: 0, sandbox: false });
    const created = await server.call('/web/monitors', { method: 'POST', key: secret, body: { url: `${origin}/pricing`, webhook_url: 'https://hooks.example.com/wsdq', retention_days: 1 } });
    const monitorId = created.body.data.monitor.id;
    const get = async () => (await server.call(`/web/monitors/${monitorId}`, { key: secret })).body.data.monitor;

    await scheduler.tick();
    const baseline = await get();
    expect(baseline.last_check).toMatchObject({ outcome: 'baseline', status_code: 200, diff: null, error: null });
    expect(Date.parse(baseline.next_check_at) - server.clock.now()).toBe(HOUR);

    await scheduler.tick();
    expect((await get()).last_check.id).toBe(baseline.last_check.id);

    server.clock.advance(HOUR);
    await scheduler.tick();
    expect((await get()).last_check.outcome).toBe('unchanged');

    price = '$59';
    server.clock.advance(HOUR);
    await scheduler.tick();
    const changed = (await get()).last_check;
    expect(changed.outcome).toBe('changed');
    expect(changed.diff).toContain('--- previous\n+++ current');
    expect(changed.diff).toMatch(/^-.*\$49/m);
    expect(changed.diff).toMatch(/^\+.*\$59/m);

    broken = true;
    server.clock.advance(HOUR);
    await scheduler.tick();
    expect((await get()).last_check).toMatchObject({ outcome: 'failed', error: { code: 'upstream_failed' } });
    broken = false;

    expect((await server.stores.webhooks.forKey(keyId)).map((message) => message.eventType)).toEqual(['monitor.changed', 'monitor.check_failed']);
    server.clock.advance(2 * 24 * HOUR);
    await scheduler.tick();
    expect(await server.stores.monitors.countChecks(monitorId)).toBe(1);
  });

  it('does not run a paused monitor, and runs it again when resumed', async () => {
    const { secret } = await server.key({ sandbox: false });
    const monitorId = (await server.call('/web/monitors', { method: 'POST', key: secret, body: { url: `${origin}/pricing` } })).body.data.monitor.id;
    await server.call(`/web/monitors/${monitorId}`, { method: 'PATCH', key: secret, body: { status: 'paused' } });
    server.clock.advance(3 * HOUR);
    await scheduler.tick();
    expect((await server.call(`/web/monitors/${monitorId}`, { key: secret })).body.data.monitor.last_check).toBeNull();
    await server.call(`/web/monitors/${monitorId}`, { method: 'PATCH', key: secret, body: { status: 'active' } });
    await scheduler.tick();
    expect((await server.call(`/web/monitors/${monitorId}`, { key: secret })).body.data.monitor.last_check.outcome).toBe('baseline');
  });

  it('schedules cron and schedule_text in the monitor time zone', () => {
    const base = { cadence_minutes: null, schedule_text: null, schedule_cron: null, timezone: 'Europe/Berlin' } as never;
    const after = Date.parse('2026-11-22T10:00:00Z');
    expect(new Date(nextCheckAt({ ...(base as object), schedule_cron: '30 9 * * *' } as never, after)).toISOString()).toBe('2026-11-23T08:30:00.000Z');
    expect(new Date(nextCheckAt({ ...(base as object), schedule_text: 'weekly on monday at 07:15' } as never, after)).toISOString()).toBe('2026-11-23T06:15:00.000Z');
    expect(nextCheckAt({ ...(base as object), schedule_text: 'every 2 hours' } as never, after) - after).toBe(2 * HOUR);
    expect(parseScheduleText('daily')).toEqual({ cron: '0 0 * * *' });
  });

  it('refuses a cron expression that does not parse', async () => {
    const answer = await server.call('/web/monitors', { method: 'POST', key: (await server.key()).secret, body: { url: 'https://example.com', schedule_cron: '61 * * * *' } });
    expect([answer.status, answer.body.error.code]).toEqual([422, 'invalid_parameters']);
    expect(answer.body.error.message).toContain('body.schedule_cron');
  });
});
