/**
 * How fetchPage reads a body (by its stream's events since the crawl's speed work): whole when it
 * arrives in many chunks, bounded, and failed when the connection drops or stalls mid-body.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchPage } from './fetch-page.ts';
import { guardedAgent } from './guarded-agent.ts';

const CHUNK = 'x'.repeat(1000);

const pages: Record<string, (response: ServerResponse) => void> = {
  '/chunked': (response) => {
    response.writeHead(200, { 'content-type': 'text/html' });
    for (let index = 0; index < 50; index++) response.write(CHUNK);
    response.end();
  },
  '/too-large': (response) => {
    response.writeHead(200, { 'content-type': 'text/html' });
    for (let index = 0; index < 50; index++) response.write(CHUNK);
    response.end();
  },
  '/cut-off': (response) => {
    response.writeHead(200, { 'content-type': 'text/html', 'content-length': '100000' });
    response.write(CHUNK, () => response.socket?.destroy());
  },
  '/stalls': (response) => {
    response.writeHead(200, { 'content-type': 'text/html' });
    response.write(CHUNK);
  },
};

describe('fetchPage reading a body', () => {
  let server: Server;
  let origin: string;
  const agent = guardedAgent({ allowPrivateNetwork: true });
  const context = (maxBytes: number) => ({ agent, policy: { allowPrivateNetwork: true }, limits: { timeoutMs: 1000, maxBytes, maxRedirects: 2 } });

  beforeAll(async () => {
    server = createServer((request, response) => pages[request.url ?? '']?.(response));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await agent.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('reads a body sent in many chunks whole', async () => {
    const page = await fetchPage(`${origin}/chunked`, context(1024 * 1024));
    expect(page.body.toString()).toBe(CHUNK.repeat(50));
  });

  it.each([
    { path: '/too-large', maxBytes: 20_000, error: { code: 'upstream_failed', message: expect.stringContaining('is larger than 20000 bytes') } },
    { path: '/cut-off', maxBytes: 1024 * 1024, error: { code: 'upstream_failed', message: expect.stringContaining('could not be fetched') } },
    { path: '/stalls', maxBytes: 1024 * 1024, error: { code: 'upstream_timeout', message: 'The page did not answer within the timeout of 1000 ms.' } },
  ])('fails $path with $error.code', async ({ path, maxBytes, error }) => {
    await expect(fetchPage(`${origin}${path}`, context(maxBytes))).rejects.toMatchObject(error);
  });
});
