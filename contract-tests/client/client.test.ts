/** The generated client against a real HTTP server on loopback: key header, base URL, typed answers. */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createQueryClient } from '../../generated/client.ts';

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

describe('createQueryClient', () => {
  let server: Server;
  let baseUrl: string;
  const seen: Seen[] = [];

  beforeAll(async () => {
    server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk));
      request.on('end', () => {
        seen.push({ method: request.method!, url: request.url!, headers: request.headers, body });
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ success: true, echoed: request.url }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/`;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('sends the API key, the /v1 base path and serialised query on every call', async () => {
    const client = createQueryClient({ baseUrl, apiKey: 'wsdq_live_abc', headers: { 'x-trace': 'on' } });
    const answer = await client.GET('/web/scrape', { params: { query: { url: 'https://example.com/a b', only_main_content: false } } });

    expect(answer.response.status).toBe(200);
    const request = seen.at(-1)!;
    expect(request.method).toBe('GET');
    expect(request.url).toBe('/v1/web/scrape?url=https%3A%2F%2Fexample.com%2Fa%20b&only_main_content=false');
    expect(request.headers['x-api-key']).toBe('wsdq_live_abc');
    expect(request.headers['x-trace']).toBe('on');
  });

  it('sends JSON bodies and fills path parameters', async () => {
    const client = createQueryClient({ baseUrl, apiKey: 'wsdq_live_abc' });
    await client.POST('/web/crawl', { body: { url: 'https://example.com', limit: 5 } });
    expect(seen.at(-1)!.headers['content-type']).toBe('application/json');
    expect(JSON.parse(seen.at(-1)!.body)).toEqual({ url: 'https://example.com', limit: 5 });

    await client.DELETE('/web/jobs/{job_id}', { params: { path: { job_id: 'job_01JD4Q9B2C3D4E5F6G7H8J9K0M' } } });
    expect(seen.at(-1)!.method).toBe('DELETE');
    expect(seen.at(-1)!.url).toBe('/v1/web/jobs/job_01JD4Q9B2C3D4E5F6G7H8J9K0M');
  });

  it('lets an explicit x-api-key header of a caller never replace the configured key', async () => {
    const client = createQueryClient({ baseUrl, apiKey: 'wsdq_live_abc', headers: { 'X-Api-Key': 'other' } });
    await client.GET('/web/jobs', {});
    expect(seen.at(-1)!.headers['x-api-key']).toBe('wsdq_live_abc');
  });
});
