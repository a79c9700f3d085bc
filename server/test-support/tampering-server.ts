/**
 * A server that breaks a promise of the contract on purpose, in front of a real one on loopback:
 * each call goes through `tamper`, which may change the call, send it upstream (any number of
 * times), and change or replace the answer. For tests that show a checker catches the breakage.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface PassingCall {
  method: string;
  /** Path and query. */
  target: string;
  /** Lower-case names. */
  headers: Record<string, string>;
  body?: string;
}

export interface PassingAnswer {
  status: number;
  headers: Headers;
  body: string;
}

export type Tamper = (call: PassingCall, send: (call: PassingCall) => Promise<PassingAnswer>) => Promise<PassingAnswer>;

export interface TamperingServer {
  /** Base URL with `/v1`. */
  baseUrl: string;
  close(): Promise<void>;
}

/** Headers of one connection, which the tampering server's own connection replaces. */
const PER_CONNECTION = ['host', 'connection', 'keep-alive', 'content-length', 'transfer-encoding'];

/** Starts it on a loopback port in front of `upstreamBaseUrl` (with `/v1`). */
export async function startTamperingServer(upstreamBaseUrl: string, tamper: Tamper): Promise<TamperingServer> {
  const upstreamOrigin = new URL(upstreamBaseUrl).origin;
  const send = async ({ method, target, headers, body }: PassingCall): Promise<PassingAnswer> => {
    const answer = await fetch(`${upstreamOrigin}${target}`, { method, headers, ...(body === undefined ? {} : { body }) });
    return { status: answer.status, headers: answer.headers, body: await answer.text() };
  };
  const server: Server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const headers = Object.fromEntries(Object.entries(request.headers).filter(([name]) => !PER_CONNECTION.includes(name)).map(([name, value]) => [name, String(value)]));
    const call: PassingCall = { method: request.method!, target: request.url!, headers, ...(chunks.length > 0 ? { body: Buffer.concat(chunks).toString() } : {}) };
    const answer = await tamper(call, send);
    const sent = new Headers(answer.headers);
    for (const name of PER_CONNECTION) sent.delete(name);
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
