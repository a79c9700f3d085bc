/**
 * Webhooks of a sandbox crawl delivered to a local receiver that verifies them with the
 * `standardwebhooks` package and fails at first: retried with backoff under the same webhook-id,
 * in order, every attempt recorded.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardedAgent } from '../outbound/guarded-agent.ts';
import { startTestServer, type TestServer } from '../test-support/test-server.ts';
import { RETRY_DELAYS_MS, WebhookDispatcher } from './dispatcher.ts';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

describe('webhook delivery', () => {
  let receiver: Server;
  let receiverUrl: string;
  const received: Received[] = [];
  let failuresLeft = 1;
  let server: TestServer;
  let dispatcher: WebhookDispatcher;

  beforeAll(async () => {
    receiver = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk));
      request.on('end', () => {
        received.push({ headers: request.headers, body });
        const fail = failuresLeft > 0;
        if (fail) failuresLeft -= 1;
        response.writeHead(fail ? 500 : 204);
        response.end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    // Receivers check webhook-timestamp against their own clock: start the server's at the real time.
    server = await startTestServer({ allowPrivateNetwork: true, clockStart: Date.now() });
    const policy = { allowPrivateNetwork: true };
    dispatcher = new WebhookDispatcher(server.stores, server.clock, guardedAgent(policy), policy);
  });
  afterAll(async () => {
    await server.close();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  });

  it('signs every event of a crawl, retries a failing receiver with the same id, and holds the later events back until it is acknowledged', async () => {
    const { secret, id: keyId } = await server.key({ credits: 100 });
    const key = (await server.stores.keys.get(keyId))!;
    const job = (await server.call('/web/crawl', { method: 'POST', key: secret, body: { url: 'https://example.com/docs/', limit: 2, webhook_url: receiverUrl } })).body.data.job;
    for (let tick = 0; tick < 5; tick++) await server.runner.tick();

    const messages = await server.stores.webhooks.forKey(keyId);
    expect(messages.map((message) => message.eventType)).toEqual(['crawl.started', 'crawl.page', 'crawl.page', 'crawl.completed']);

    const ids = messages.map((message) => message.id);
    await dispatcher.tick();
    expect(received.map((delivery) => delivery.headers['webhook-id'])).toEqual([ids[0]]);
    expect(await server.stores.webhooks.get(ids[0]!)).toMatchObject({ state: 'pending', attempts: 1, lastStatus: 500 });

    server.clock.advance(RETRY_DELAYS_MS[0]!);
    await dispatcher.tick();
    expect(received.map((delivery) => delivery.headers['webhook-id'])).toEqual([ids[0], ...ids]);

    const verifier = new Webhook(key.webhookSecret);
    const delivered = received.slice(1);
    const events = delivered.map((delivery) => verifier.verify(delivery.body, delivery.headers as Record<string, string>) as { type: string; timestamp: string; data: { job: { id: string } } });
    expect(events.map((event) => event.type)).toEqual(['crawl.started', 'crawl.page', 'crawl.page', 'crawl.completed']);
    expect(events.every((event) => event.data.job.id === job.id)).toBe(true);
    expect((await server.stores.webhooks.forKey(keyId)).map((message) => [message.state, message.attempts])).toEqual([['delivered', 2], ['delivered', 1], ['delivered', 1], ['delivered', 1]]);
  });

  it('refuses a tampered body on the receiver side (the signature covers it)', async () => {
    const key = (await server.stores.keys.get((await server.key()).id))!;
    const delivery = received.at(-1)!;
    expect(() => new Webhook(key.webhookSecret).verify(delivery.body, delivery.headers as Record<string, string>)).toThrow();
  });

  it('gives a message up after the last retry', async () => {
    failuresLeft = 100;
    const { secret, id: keyId } = await server.key({ credits: 100 });
    await server.call('/web/batch-scrape', { method: 'POST', key: secret, body: { urls: ['https://example.com/one'], webhook_url: receiverUrl } });
    await server.runner.tick();
    const [started] = await server.stores.webhooks.forKey(keyId);
    for (const delay of [0, ...RETRY_DELAYS_MS]) {
      server.clock.advance(delay);
      await dispatcher.tick();
    }
    expect(await server.stores.webhooks.get(started!.id)).toMatchObject({ state: 'failed', attempts: RETRY_DELAYS_MS.length + 1, lastStatus: 500 });
  });

  it('refuses a non-public webhook_url at submission with 422 url_not_allowed', async () => {
    const closed = await startTestServer({ allowPrivateNetwork: false });
    const answer = await closed.call('/web/crawl', { method: 'POST', key: (await closed.key()).secret, body: { url: 'https://example.com', webhook_url: 'http://169.254.169.254/hook' } });
    expect([answer.status, answer.body.error.code]).toEqual([422, 'url_not_allowed']);
    await closed.close();
  });
});
