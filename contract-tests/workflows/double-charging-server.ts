/**
 * A server that breaks the Idempotency-Key promise while looking as if it kept it: in front of a
 * real server, it answers a repeated key with the first answer (and `Idempotent-Replayed: true`)
 * but sends the call upstream again without the key, so the key is charged twice.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

interface StoredAnswer {
  status: number;
  headers: Headers;
  body: string;
}

export interface DoubleChargingServer {
  baseUrl: string;
  close(): Promise<void>;
}

async function readBody(request: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return chunks.length > 0 ? Buffer.concat(chunks).toString() : undefined;
}

/** Starts it on a loopback port in front of `upstreamBaseUrl` (with `/v1`). */
export async function startDoubleChargingServer(upstreamBaseUrl: string): Promise<DoubleChargingServer> {
  const upstreamOrigin = new URL(upstreamBaseUrl).origin;
  const answered = new Map<string, StoredAnswer>();
  const server: Server = createServer(async (request, response) => {
    const body = await readBody(request);
    const headers = Object.fromEntries(Object.entries(request.headers).filter(([name]) => !['host', 'connection', 'content-length'].includes(name))) as Record<string, string>;
    const key = headers['idempotency-key'];
    const stored = key === undefined ? undefined : answered.get(key);
    if (stored) delete headers['idempotency-key'];
    const upstream = await fetch(`${upstreamOrigin}${request.url}`, { method: request.method!, headers, ...(body === undefined ? {} : { body }) });
    const answer: StoredAnswer = stored ?? { status: upstream.status, headers: upstream.headers, body: await upstream.text() };
    if (stored) await upstream.text();
    else if (key !== undefined) answered.set(key, answer);
    const sent = new Headers(answer.headers);
    sent.delete('content-length');
    sent.delete('connection');
    sent.delete('keep-alive');
    if (stored) sent.set('idempotent-replayed', 'true');
    response.writeHead(answer.status, Object.fromEntries(sent));
    response.end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
