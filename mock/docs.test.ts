/**
 * The mock serves the rendered reference at its own `/docs`, and every error it answers, built by
 * the mock or taken from the contract's examples, links there: at the address the caller used.
 */
import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractPath } from '../lib/contract-document.ts';
import { referencePage } from '../lib/reference-page.ts';
import { createMockServer } from './create-mock-server.ts';
import { createPrismEngine } from './prism-engine.ts';

const KEY = { 'x-api-key': 'wsdq_mock_test' };

/** GET with a Host header of the test's choosing (fetch does not let a caller set Host). */
function getWithHost(url: string, host: string): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const call = httpRequest(url, { headers: { ...KEY, host } }, (response) => {
      let text = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk)).on('end', () => resolve({ status: response.statusCode!, body: JSON.parse(text) }));
    });
    call.on('error', reject).end();
  });
}

describe('the mock and its reference', () => {
  let server: Server;
  let origin: string;

  beforeAll(async () => {
    server = createMockServer({ engine: await createPrismEngine(contractPath), log: () => {} });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('nothing was served at /docs: the mock serves the rendered reference there, the page the server serves', async () => {
    const response = await fetch(`${origin}/docs`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(Buffer.from(await response.arrayBuffer()).equals(await referencePage())).toBe(true);
  });

  const cases = [
    { name: 'an error the mock builds (no key)', path: '/v1/web/scrape?url=https://example.com', headers: {}, code: 'api_key_missing' },
    { name: "a contract example's error (Prefer: code=404)", path: '/v1/web/scrape?url=https://example.com', headers: { ...KEY, Prefer: 'code=404' }, code: 'upstream_not_found' },
    { name: 'a named example of another code (Prefer: example=upstream_timeout)', path: '/v1/web/scrape?url=https://example.com', headers: { ...KEY, Prefer: 'code=504, example=upstream_timeout' }, code: 'upstream_timeout' },
  ];

  it.each(cases)('doc_url said 127.0.0.1:3000 whatever the port: $name links to the heading of its code at this mock', async ({ path, headers, code }) => {
    const response = await fetch(`${origin}${path}`, { headers });
    const body = await response.json();
    expect(body.error.code).toBe(code);
    expect(body.error.doc_url).toBe(`${origin}/docs#section/${code}`);
  });

  it('links to the host the caller named, and ignores a Host that is not host[:port]', async () => {
    const port = new URL(origin).port;
    expect((await getWithHost(`${origin}/v1/nowhere`, `localhost:${port}`)).body.error.doc_url).toBe(`http://localhost:${port}/docs#section/endpoint_not_found`);
    expect((await getWithHost(`${origin}/v1/nowhere`, 'evil.example/phish?')).body.error.doc_url).toBe(`${origin}/docs#section/endpoint_not_found`);
  });
});
