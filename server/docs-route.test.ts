/**
 * `/docs` serves the rendered reference beside `/v1`, and every `doc_url` points into it at the
 * address the caller used (scheme, Host, port), or under PUBLIC_BASE_URL behind a proxy. A Host
 * header that is not a plain `host[:port]` never reaches a link.
 */
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referencePage, sendReferencePage } from '../lib/reference-page.ts';
import { ConfigError, readConfig } from './config.ts';
import { startTestServer, type TestServer } from './test-support/test-server.ts';

/** An error answer's doc_url for a request sent with this Host header (fetch does not let a caller set Host). */
function docUrlWithHost(baseUrl: string, host: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const call = httpRequest(`${baseUrl}/web/scrape?url=https://example.com`, { headers: { host } }, (response) => {
      let text = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk)).on('end', () => resolve(JSON.parse(text).error.doc_url));
    });
    call.on('error', reject).end();
  });
}

describe('the reference at /docs and the links to it', () => {
  let server: TestServer;
  let origin: string;
  let port: string;

  beforeAll(async () => {
    server = await startTestServer();
    origin = new URL(server.baseUrl).origin;
    port = new URL(server.baseUrl).port;
  });

  afterAll(() => server.close());

  it('nothing was served at /docs: GET answers the rendered reference, HEAD its headers', async () => {
    const page = await fetch(`${origin}/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(Buffer.from(await page.arrayBuffer()).equals(await referencePage())).toBe(true);

    const head = await fetch(`${origin}/docs/`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String((await referencePage()).length));
  });

  it('doc_url said 127.0.0.1:3000 whatever the port: it names the port the caller used', async () => {
    const answer = await server.call('/web/scrape?url=https://example.com');
    expect(answer.status).toBe(401);
    expect(answer.body.error.doc_url).toBe(`${origin}/docs#section/api_key_missing`);
  });

  const hosts = [
    { host: () => `localhost:${port}`, expected: () => `http://localhost:${port}/docs` },
    { host: () => `API.Example.test:${port}`, expected: () => `http://api.example.test:${port}/docs` },
    { host: () => `[::1]:${port}`, expected: () => `http://[::1]:${port}/docs` },
    { host: () => 'example.test', expected: () => 'http://example.test/docs' },
  ];

  it.each(hosts)('links to the Host the caller named: $expected', async ({ host, expected }) => {
    expect(await docUrlWithHost(server.baseUrl, host())).toBe(`${expected()}#section/api_key_missing`);
  });

  const malformed = ['evil.example/phish?', 'evil.example:99999', 'evil.example:80:81', '-evil.example', 'user@evil.example', 'evil.example"><script>'];

  it.each(malformed)('a Host that is not host[:port] (%s) never reaches the link: it names the address connected to', async (host) => {
    expect(await docUrlWithHost(server.baseUrl, host)).toBe(`${origin}/docs#section/api_key_missing`);
  });

  it('links under PUBLIC_BASE_URL when the operator set one, whatever the Host', async () => {
    const behindProxy = await startTestServer({ publicBaseUrl: 'https://api.example.com/wsdq' });
    try {
      expect(await docUrlWithHost(behindProxy.baseUrl, 'internal-host:8080')).toBe('https://api.example.com/wsdq/docs#section/api_key_missing');
    } finally {
      await behindProxy.close();
    }
  });
});

describe('a reference that cannot be built', () => {
  it('answers 503 in plain text saying why and what to run, never a hung or reset request', async () => {
    const failing = () => Promise.reject(new Error("spawn node_modules/.bin/redocly ENOENT\n    at stack"));
    const server = createServer((_request, response) => void sendReferencePage(response, failing));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const answer = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/docs`);
      expect(answer.status).toBe(503);
      expect(answer.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(await answer.text()).toBe('The API reference could not be built (spawn node_modules/.bin/redocly ENOENT). Run `npm run docs` to see why.\n');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('PUBLIC_BASE_URL', () => {
  it.each([
    ['https://api.example.com', 'https://api.example.com'],
    ['https://api.example.com/', 'https://api.example.com'],
    ['http://gateway.internal:8080/wsdq/', 'http://gateway.internal:8080/wsdq'],
  ])('accepts %s as %s', (value, expected) => {
    expect(readConfig({ PUBLIC_BASE_URL: value }).publicBaseUrl).toBe(expected);
  });

  it('is unset by default: links follow each caller', () => {
    expect(readConfig({}).publicBaseUrl).toBeNull();
  });

  it.each(['api.example.com', 'ftp://api.example.com', 'https://api.example.com/v1', 'https://user:secret@api.example.com', 'https://api.example.com/?x=1', 'https://api.example.com/#'])(
    'refuses %s, naming the variable',
    (value) => {
      expect(() => readConfig({ PUBLIC_BASE_URL: value })).toThrow(ConfigError);
      expect(() => readConfig({ PUBLIC_BASE_URL: value })).toThrow(/^PUBLIC_BASE_URL must be the http or https URL under which \/v1 and \/docs are served/);
    },
  );
});
