/**
 * A fake OpenAI-compatible model server for tests: a real HTTP server on loopback (port 0) that
 * records each request and answers with what the test scripts, by default the Chat Completions
 * API reference's documented example (fixtures/chat-completion.json) carrying the test's content.
 */
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';

export const DOCUMENTED_COMPLETION = JSON.parse(readFileSync(new URL('./fixtures/chat-completion.json', import.meta.url), 'utf8')) as Record<string, any>;

/** A fixture of fixtures/, parsed. */
export function fixture(name: string): Record<string, any> {
  return JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8'));
}

/** The documented example completion with its first choice's message and finish_reason replaced. */
export function completion(message: { content?: string | null; refusal?: string | null }, finishReason = 'stop'): Record<string, any> {
  const choice = DOCUMENTED_COMPLETION.choices[0];
  return {
    ...DOCUMENTED_COMPLETION,
    choices: [{ ...choice, message: { ...choice.message, content: null, refusal: null, ...message }, finish_reason: finishReason }],
  };
}

export interface FakeReply {
  status?: number;
  headers?: Record<string, string>;
  /** An object is sent as JSON; a string as it is. */
  body?: unknown;
  /** Wait this long before answering. */
  delayMs?: number;
}

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: any;
}

export interface FakeModelServer {
  /** `http://127.0.0.1:PORT/v1`, as OPENAI_BASE_URL. */
  baseUrl: string;
  received: ReceivedRequest[];
  /** What every following request is answered (a function: per request). */
  answer(reply: FakeReply | ((request: ReceivedRequest) => FakeReply)): void;
  close(): Promise<void>;
}

export async function startFakeModelServer(): Promise<FakeModelServer> {
  let script: FakeReply | ((request: ReceivedRequest) => FakeReply) = { body: completion({ content: '{}' }) };
  const received: ReceivedRequest[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const entry: ReceivedRequest = { method: request.method ?? '', path: request.url ?? '', headers: request.headers, body: text === '' ? undefined : JSON.parse(text) };
      received.push(entry);
      const reply = typeof script === 'function' ? script(entry) : script;
      const body = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body ?? null);
      const send = () => {
        if (response.destroyed) return;
        response.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
        response.end(body);
      };
      if (reply.delayMs) setTimeout(send, reply.delayMs).unref();
      else send();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    received,
    answer(reply) {
      script = reply;
    },
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
