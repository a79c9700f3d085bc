import { describe, expect, it } from 'vitest';
import { InFlightWork } from './in-flight.ts';
import { startTestServer } from './test-support/test-server.ts';

const EVENTS = '/socialnet/events?url=https%3A%2F%2Fsocial.example%2Fgroups%2Fberlin-hikers';

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

describe('InFlightWork', () => {
  it('settles once every tracked promise has, a rejected one and one tracked meanwhile included', async () => {
    const inFlight = new InFlightWork();
    const first = deferred();
    const second = deferred();
    const failing = inFlight.track(Promise.reject(new Error('refused')));
    await expect(failing).rejects.toThrow('refused');
    void inFlight.track(first.promise);
    let settled = false;
    const done = inFlight.settled().then(() => (settled = true));
    void inFlight.track(second.promise);
    first.resolve();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(settled).toBe(false);
    second.resolve();
    await done;
    expect(settled).toBe(true);
  });
});

describe('shutdown and the work that outlives an answer', () => {
  it('shutdown waits for an idempotent answer to be stored before the database closes, so the retry replays instead of 409 and a second charge', async () => {
    const server = await startTestServer();
    const { secret, id } = await server.key({ credits: 100 });
    const records = server.stores.idempotency;
    const complete = records.complete.bind(records);
    const storing = deferred();
    records.complete = async (...args: Parameters<typeof complete>) => {
      await storing.promise;
      return complete(...args);
    };
    const headers = { 'Idempotency-Key': 'stored-after-the-answer' };
    try {
      const first = await server.call(EVENTS, { key: secret, headers });
      expect(first.status).toBe(200);

      let settled = false;
      const done = server.inFlight.settled().then(() => (settled = true));
      await new Promise((resolve) => setTimeout(resolve, 30));
      expect(settled).toBe(false);
      storing.resolve();
      await done;

      const retry = await server.call(EVENTS, { key: secret, headers });
      expect([retry.status, retry.headers.get('idempotent-replayed'), retry.body.request_id]).toEqual([200, 'true', first.body.request_id]);
      expect(await server.stores.ledger.balance(id)).toBe(100 - first.body.credits_used);
    } finally {
      storing.resolve();
      await server.close();
    }
  });
});
