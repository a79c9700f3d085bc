/**
 * Webhook deliveries never wait on a stranger's receiver: one receiver that never answers holds
 * back only its own events (at most `perReceiver` of its subjects at once), while another key's
 * events reach their receiver, each subject's in order, before the hanging one's first attempt has
 * even timed out.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { guardedAgent } from '../outbound/guarded-agent.ts';
import { startTestServer, type TestServer } from '../test-support/test-server.ts';
import { DEFAULT_DELIVERY_BOUNDS, WebhookDispatcher } from './dispatcher.ts';

/** A loopback receiver recording each request's webhook-id; `answer` false leaves every request unanswered. */
async function receiver(answer: boolean): Promise<{ url: string; ids: string[]; sockets: Set<Socket>; server: Server }> {
  const ids: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((request, response) => {
    ids.push(String(request.headers['webhook-id']));
    request.resume();
    if (answer) request.on('end', () => response.writeHead(204).end());
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, ids, sockets, server };
}

describe('webhook deliveries across receivers', () => {
  let server: TestServer;

  // A server per test: one test's undelivered events must not take the next one's delivery slots.
  beforeEach(async () => {
    server = await startTestServer({ allowPrivateNetwork: true, clockStart: Date.now() });
  });
  afterEach(async () => {
    await server.close();
  });

  it('a receiver that never answers no longer holds back another key\'s events (they arrive, in order, before its first attempt times out)', async () => {
    const hanging = await receiver(false);
    const healthy = await receiver(true);
    const stranger = (await server.key()).id;
    const caller = (await server.key()).id;
    const now = server.clock.now();
    const enqueue = async (keyId: string, subject: string, url: string, count: number) => {
      const ids: string[] = [];
      for (let index = 0; index < count; index++) ids.push(await server.stores.webhooks.enqueue(keyId, subject, url, 'crawl.page', { index }, now));
      return ids;
    };
    // The stranger's events are queued first: delivered one at a time, they used to block the rest for 10 s each.
    const stuck: string[][] = [];
    for (let job = 0; job < DEFAULT_DELIVERY_BOUNDS.perReceiver + 2; job++) stuck.push(await enqueue(stranger, `job_stranger_${job}`, hanging.url, 2));
    const first = await enqueue(caller, 'job_first', healthy.url, 3);
    const second = await enqueue(caller, 'job_second', healthy.url, 2);
    const message = async (id: string) => (await server.stores.webhooks.get(id))!;
    const policy = { allowPrivateNetwork: true };
    const dispatcher = new WebhookDispatcher(server.stores, server.clock, guardedAgent(policy), policy);

    const ticked = dispatcher.tick();
    await vi.waitFor(() => expect(healthy.ids).toHaveLength(5), { timeout: 8_000, interval: 20 });
    await vi.waitFor(() => expect(hanging.ids).toHaveLength(DEFAULT_DELIVERY_BOUNDS.perReceiver), { timeout: 2_000, interval: 20 });
    expect(await Promise.all(stuck.flat().map(async (id) => (await message(id)).attempts))).toEqual(stuck.flat().map(() => 0));
    expect(healthy.ids.filter((id) => first.includes(id))).toEqual(first);
    expect(healthy.ids.filter((id) => second.includes(id))).toEqual(second);
    await vi.waitFor(async () => expect(await Promise.all([...first, ...second].map(async (id) => (await message(id)).state))).toEqual(Array(5).fill('delivered')), { timeout: 2_000, interval: 20 });

    for (const socket of hanging.sockets) socket.destroy();
    await ticked;
    // Each attempted subject's first event once, and no subject's second event (it waits behind the first).
    const heads = stuck.map((ids) => ids[0]!);
    expect(new Set(hanging.ids).size).toBe(DEFAULT_DELIVERY_BOUNDS.perReceiver);
    expect(hanging.ids.every((id) => heads.includes(id))).toBe(true);
    expect(await Promise.all(stuck.map((ids) => Promise.all(ids.map(async (id) => (await message(id)).attempts))))).toEqual(heads.map((head) => [hanging.ids.includes(head) ? 1 : 0, 0]));
    await Promise.all([hanging, healthy].map(({ server: listening }) => new Promise((resolve) => listening.close(resolve))));
  });

  it('runs at most `inFlight` deliveries at once across receivers', async () => {
    const receivers = await Promise.all([receiver(false), receiver(false)]);
    const keyId = (await server.key()).id;
    for (const [index, { url }] of receivers.entries()) {
      for (let job = 0; job < 3; job++) await server.stores.webhooks.enqueue(keyId, `job_bounded_${index}_${job}`, url, 'crawl.page', {}, server.clock.now());
    }
    const policy = { allowPrivateNetwork: true };
    const dispatcher = new WebhookDispatcher(server.stores, server.clock, guardedAgent(policy), policy, { bounds: { perReceiver: 2, inFlight: 3 } });

    const ticked = dispatcher.tick();
    await vi.waitFor(() => expect(receivers.flatMap(({ ids }) => ids)).toHaveLength(3), { timeout: 5_000, interval: 20 });
    expect(receivers.map(({ ids }) => ids.length).sort()).toEqual([1, 2]);
    for (const socket of receivers.flatMap(({ sockets }) => [...sockets])) socket.destroy();
    await ticked;
    expect(receivers.flatMap(({ ids }) => ids)).toHaveLength(3);
    await Promise.all(receivers.map(({ server: listening }) => new Promise((resolve) => listening.close(resolve))));
  });
});
