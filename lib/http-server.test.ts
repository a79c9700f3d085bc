/**
 * What Node's HTTP parser refuses, on the server and the mock alike: the error envelope with its
 * four headers (never a bare 431 or 400, never a reset connection), and the head limit computed
 * from the contract.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockAndServer, type RunningTarget } from '../server/test-support/mock-and-server.ts';
import { largestRequestHead, MAX_REQUEST_HEAD_BYTES, ORDINARY_HEADERS_BYTES } from './request-limits.ts';

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: Record<string, any>;
  /** The socket error met while sending or reading, if any. */
  socketError: string | null;
}

/** Sends `head` (and `rest`, in chunks) on a raw connection and reads the whole answer until the server closes. */
function sendRaw(baseUrl: string, head: string, rest: Buffer = Buffer.alloc(0)): Promise<RawAnswer> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    let socketError: string | null = null;
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => (socketError = error.code ?? error.message));
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [headText = '', bodyText = ''] = text.split('\r\n\r\n');
      const [statusLine = '', ...headerLines] = headText.split('\r\n');
      const headers = Object.fromEntries(headerLines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
      let body: Record<string, any> = {};
      try {
        body = JSON.parse(bodyText);
      } catch {
        body = { unparsable: bodyText };
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body, socketError });
    });
    socket.write(head);
    for (let offset = 0; offset < rest.length; offset += 64 * 1024) socket.write(rest.subarray(offset, offset + 64 * 1024));
  });
}

/** `baseUrl` is the target's `…/v1`: the link goes to `/docs` at the address the connection reached. */
function expectUnreadRequestEnvelope(answer: RawAnswer, code: string, baseUrl: string): void {
  expect(answer.socketError).toBeNull();
  expect(answer.status).toBe(422);
  const doc_url = `${new URL(baseUrl).origin}/docs#section/${code}`;
  expect(answer.body).toMatchObject({ success: false, platform: 'unknown', credits_used: 0, credits_remaining: null, cached: false, error: { code, status: 422, type: 'invalid_request_error', doc_url } });
  expect(answer.headers).toMatchObject({
    'x-request-id': answer.body.request_id,
    'x-credits-used': '0',
    'x-credits-remaining': 'unknown',
    'x-cache': 'BYPASS',
    'content-type': 'application/json; charset=utf-8',
    connection: 'close',
  });
}

describe('requests the HTTP parser refuses', () => {
  let targets: RunningTarget[] = [];
  beforeAll(async () => (targets = await startMockAndServer()));
  afterAll(() => Promise.all(targets.map((target) => target.close())));

  const names = ['server', 'mock'];
  const target = (name: string) => targets.find((candidate) => candidate.name === name)!;

  it.each(names)('the %s answers headers over the limit with 422 request_too_large in the envelope, not a bare 431', async (name) => {
    const { baseUrl, key } = target(name);
    const answer = await sendRaw(baseUrl, `GET /v1/web/jobs HTTP/1.1\r\nHost: localhost\r\nx-api-key: ${key}\r\nX-Padding: ${'p'.repeat(MAX_REQUEST_HEAD_BYTES)}\r\n\r\n`);
    expectUnreadRequestEnvelope(answer, 'request_too_large', baseUrl);
    expect(answer.body.error.message).toBe(`The request line and headers are over ${MAX_REQUEST_HEAD_BYTES} bytes, more than any request within the contract's limits needs (every parameter at its maxLength, every character percent-encoded at its largest): shorten the query or the headers.`);
  });

  it.each(names)('the %s answers a request line six times the limit, still being sent, without resetting the connection', async (name) => {
    const { baseUrl } = target(name);
    const query = Buffer.from(`&prompt=${'a'.repeat(MAX_REQUEST_HEAD_BYTES * 6)} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
    const answer = await sendRaw(baseUrl, 'GET /v1/web/extract?url=https://example.com', query);
    expectUnreadRequestEnvelope(answer, 'request_too_large', baseUrl);
  });

  it.each(names)('the %s answers a malformed header with 422 malformed_request in the envelope, not a bare 400', async (name) => {
    const { baseUrl, key } = target(name);
    const answer = await sendRaw(baseUrl, `GET /v1/web/jobs HTTP/1.1\r\nHost: localhost\r\nx-api-key: ${key}\r\nNot a header\r\n\r\n`);
    expectUnreadRequestEnvelope(answer, 'malformed_request', baseUrl);
    expect(answer.body.endpoint).toBe('/web/jobs');
    expect(answer.body.error.message).toMatch(/^The request is not well-formed HTTP\/1\.1: .+ \(HPE_[A-Z_]+\)\.$/);
  });

  it.each(names)('the %s answers a malformed request line with 422 malformed_request', async (name) => {
    const { baseUrl } = target(name);
    const answer = await sendRaw(baseUrl, 'GET /v1/web/jobs HTTP/9.9\r\nHost: localhost\r\n\r\n');
    expectUnreadRequestEnvelope(answer, 'malformed_request', baseUrl);
  });
});

describe('the request head limit', () => {
  const document = (parameters: unknown[], path = '/things') => ({
    servers: [{ url: 'http://127.0.0.1:3000/v1' }],
    paths: { [path]: { get: { operationId: 'getThing', parameters } } },
    components: { parameters: { Key: { name: 'Idempotency-Key', in: 'header', schema: { type: 'string', maxLength: 10 } } } },
  });
  const line = (path: string, query: number) => 'GET '.length + path.length + '?'.length + query + ' HTTP/1.1\r\n'.length;

  it.each([
    { name: 'a string counts 12 characters per character of its maxLength, its name 3 per character', parameters: [{ name: 'q', in: 'query', schema: { type: 'string', maxLength: 10 } }], head: line('/v1/things', 3 + 1 + 120 + 1) },
    { name: 'an enum counts its longest value', parameters: [{ name: 'q', in: 'query', schema: { type: 'string', enum: ['a', 'abcd'] } }], head: line('/v1/things', 3 + 1 + 48 + 1) },
    { name: 'a string bounded only by a pattern counts 256 characters', parameters: [{ name: 'q', in: 'query', schema: { type: 'string', pattern: '^[a-z]{2}$' } }], head: line('/v1/things', 3 + 1 + 256 * 12 + 1) },
    { name: 'a number counts 24 characters, a boolean 5', parameters: [{ name: 'n', in: 'query', schema: { type: 'integer' } }, { name: 'b', in: 'query', schema: { type: 'boolean' } }], head: line('/v1/things', (3 + 1 + 24 * 12 + 1) + (3 + 1 + 5 * 12 + 1)) },
    { name: 'a path parameter counts like a query value', path: '/things/{id}', parameters: [{ name: 'id', in: 'path', schema: { type: 'string', maxLength: 64 } }], head: line(`/v1/things/${'x'.repeat(64 * 12)}`, 0) },
    { name: 'a declared header counts 4 bytes per character, raw', parameters: [{ $ref: '#/components/parameters/Key' }], head: line('/v1/things', 0) + 'Idempotency-Key: '.length + 40 + 2 },
  ] as { name: string; path?: string; parameters: unknown[]; head: number }[])('$name', ({ path, parameters, head }) => {
    expect(largestRequestHead(document(parameters, path))).toBe(head + ORDINARY_HEADERS_BYTES);
  });

  it("fits web/extract's schema and prompt at their maxLength, every character a percent-encoded 4-byte code point", () => {
    expect(MAX_REQUEST_HEAD_BYTES).toBeGreaterThan((16_384 + 10_000) * 12 + ORDINARY_HEADERS_BYTES);
  });
});
