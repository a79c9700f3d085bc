/**
 * A fake upstream on loopback (port 0) for the upstream client's and the adapters' tests: each
 * request is answered by the current `answer`, recorded (method, path with query, headers, JSON
 * body), and counted while in flight.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino, { type Logger } from 'pino';

export interface RecordedRequest {
  method: string;
  /** Path and query as sent. */
  url: string;
  headers: IncomingMessage['headers'];
  body: unknown;
}

export type FakeAnswer = (request: RecordedRequest, response: ServerResponse) => void | Promise<void>;

export interface FakeUpstream {
  baseUrl: string;
  requests: RecordedRequest[];
  /** The most requests that were in flight at once. */
  maxInFlight(): number;
  answer: FakeAnswer;
  close(): Promise<void>;
}

export async function startFakeUpstream(answer: FakeAnswer = json(200, {})): Promise<FakeUpstream> {
  let inFlight = 0;
  let most = 0;
  const fake: FakeUpstream = {
    baseUrl: '',
    requests: [],
    maxInFlight: () => most,
    answer,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
  const server = createServer(async (request, response) => {
    inFlight++;
    most = Math.max(most, inFlight);
    response.on('close', () => inFlight--);
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const recorded = { method: request.method ?? '', url: request.url ?? '', headers: request.headers, body: text ? JSON.parse(text) : undefined };
    fake.requests.push(recorded);
    await fake.answer(recorded, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}

/** Answers `status` with `body` as JSON (a string is sent as it is) and `headers`. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): FakeAnswer {
  return (_request, response) => {
    response.writeHead(status, { 'content-type': 'application/json', ...headers });
    response.end(typeof body === 'string' ? body : JSON.stringify(body));
  };
}

/** Answers 200 with an HTML page (a login wall, a proxy's error page). */
export function html(): FakeAnswer {
  return (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end('<!doctype html><html><body><h1>Sign in</h1></body></html>');
  };
}

/** Answers 200 JSON only after `delayMs`. */
export function slow(delayMs: number, body: unknown = {}): FakeAnswer {
  return (request, response) => new Promise((resolve) => {
    setTimeout(() => {
      if (!response.destroyed) json(200, body)(request, response);
      resolve();
    }, delayMs);
  });
}

/** Answers 200 with a JSON array of `bytes` bytes, chunked (no Content-Length). */
export function oversized(bytes: number): FakeAnswer {
  return (_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.write('[');
    response.end(`${'"x",'.repeat(Math.ceil(bytes / 4))}"x"]`);
  };
}

/** A logger whose JSON lines land in `lines`, for assertions on what the operator reads. */
export function capturingLogger(): { logger: Logger; lines: () => Record<string, unknown>[]; text: () => string } {
  const written: string[] = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => written.push(line) });
  return { logger, lines: () => written.join('').split('\n').filter(Boolean).map((line) => JSON.parse(line)), text: () => written.join('') };
}
