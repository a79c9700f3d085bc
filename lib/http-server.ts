/**
 * The HTTP server of the service and of the mock: Node's server with a head limit that fits every
 * request within the contract's limits (lib/request-limits.ts), and the error envelope for what
 * Node's parser refuses, where Node would answer a bare 431 or 400.
 */
import { createServer, STATUS_CODES, type IncomingMessage, type RequestListener, type Server } from 'node:http';
import type { Socket } from 'node:net';
import type { ErrorCode } from '../generated/errors.ts';
import { docsBaseUrl } from './docs-link.ts';
import { envelopeHeaders, errorAnswer } from './envelope.ts';
import { malformedRequest, requestTimedOut, requestTooLarge } from './error-messages.ts';
import { MAX_REQUEST_HEAD_BYTES } from './request-limits.ts';
import { newRequestId } from './request-id.ts';

/** How long a refused client may take to read the answer and close, before its socket is destroyed. */
const LINGER_MS = 2000;

interface ParserError extends Error {
  code?: string;
  reason?: string;
  /** The bytes the parser was reading when it failed. */
  rawPacket?: Buffer;
}

/** The code and message of the envelope for a parser's error. */
function describeParserError(error: ParserError, maxHeadBytes: number): { code: ErrorCode; message: string } {
  if (error.code === 'HPE_HEADER_OVERFLOW') return { code: 'request_too_large', message: requestTooLarge(maxHeadBytes) };
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return { code: 'malformed_request', message: requestTimedOut() };
  return { code: 'malformed_request', message: malformedRequest(error.reason ?? error.message, error.code ?? 'parse error') };
}

/** The path of the request line at the start of `packet`, or `unknown` when the parser failed past it. */
function requestedPath(packet: Buffer | undefined): string {
  const match = /^[A-Z]+ (\/[^ ?#]*)/.exec(packet?.subarray(0, 2048).toString('latin1') ?? '');
  return match ? match[1]!.replace(/^\/v1(?=\/)/, '') : 'unknown';
}

export interface HttpServerOptions {
  /** The largest request head read, in bytes (MAX_REQUEST_HEAD_BYTES). */
  maxHeadBytes?: number;
  /** Where `doc_url` points behind a proxy (`PUBLIC_BASE_URL`); else the address the connection reached. */
  publicBaseUrl?: string | null;
}

/** The raw HTTP/1.1 answer (envelope and its four headers) to a request Node's parser refused on `socket`. */
function parserErrorAnswer(error: ParserError, socket: Socket, maxHeadBytes: number, publicBaseUrl: string | null): string {
  const { code, message } = describeParserError(error, maxHeadBytes);
  // The head was not read, so no Host header: the link uses the address the connection reached.
  const docsBase = docsBaseUrl({ socket, headers: {} } as IncomingMessage, publicBaseUrl);
  const { status, body } = errorAnswer(code, message, { platform: 'unknown', endpoint: requestedPath(error.rawPacket), creditsRemaining: null }, newRequestId(), docsBase);
  const text = JSON.stringify(body);
  const headers = {
    ...envelopeHeaders(body, 'BYPASS'),
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(text)),
    Connection: 'close',
  };
  const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('');
  return `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${head}\r\n${text}`;
}

const answered = new WeakSet<Socket>();

/**
 * Answers a request the parser refused with the error envelope, then closes gently: the client's
 * remaining bytes are left unread until it has the answer, so it never meets a reset connection.
 */
function answerClientError(error: ParserError, socket: Socket, maxHeadBytes: number, publicBaseUrl: string | null): void {
  if (answered.has(socket)) return;
  answered.add(socket);
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  socket.end(parserErrorAnswer(error, socket, maxHeadBytes, publicBaseUrl));
  setTimeout(() => socket.destroy(), LINGER_MS).unref();
}

/** An HTTP server for `listener` whose head limit is MAX_REQUEST_HEAD_BYTES, answering parser errors with the envelope. */
export function createHttpServer(listener: RequestListener, { maxHeadBytes = MAX_REQUEST_HEAD_BYTES, publicBaseUrl = null }: HttpServerOptions = {}): Server {
  const server = createServer({ maxHeaderSize: maxHeadBytes }, listener);
  server.on('clientError', (error: ParserError, socket: Socket) => answerClientError(error, socket, maxHeadBytes, publicBaseUrl));
  return server;
}
