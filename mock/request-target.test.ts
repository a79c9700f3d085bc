import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parsedRequestTarget, requestTarget } from './request-target.ts';
import { startMockAndServer, type RunningTarget } from '../server/test-support/mock-and-server.ts';

/** Sends `path` as written (fetch would resolve its dot segments first). */
function sendRaw(baseUrl: string, method: string, path: string, key?: string): Promise<{ status: number; code: string | undefined; rateLimit: string | undefined }> {
  const base = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: base.hostname, port: base.port, method, path: `${base.pathname}${path}`, headers: key ? { 'x-api-key': key } : {} }, (answer) => {
      let text = '';
      answer.setEncoding('utf8').on('data', (chunk: string) => (text += chunk)).on('end', () => {
        resolve({ status: answer.statusCode!, code: (JSON.parse(text) as { error?: { code?: string } }).error?.code, rateLimit: answer.headers['ratelimit'] as string | undefined });
      });
    });
    outgoing.on('error', reject).end();
  });
}

describe('requestTarget', () => {
  it('reads a plain target (split, not parsed) as the URL parser does', () => {
    const unit = fc.constantFrom('a', 'Z', '0', '_', '-', '~', '!', '$', '&', "'", '(', '*', '+', ',', ';', '=', ':', '@', '%', '%2e', '%zz', '/', '//', '.', '..', '?', '#', ' ', '\\', 'é', '[');
    fc.assert(fc.property(fc.string({ unit, maxLength: 12 }), (tail) => {
      const raw = `/v1/${tail}`;
      expect(requestTarget(raw)).toEqual(parsedRequestTarget(raw));
    }), { numRuns: 3000, seed: 14 });
    for (const raw of ['/', '//evil/x', '/v1/web/scrape?url=https%3A%2F%2Fexample.com%2Fblog%2Flaunch', '/v1/web/jobs?', '/v1/web/jobs?a=1?b', '/v1/web/jobs/%FF']) {
      expect(requestTarget(raw)).toEqual(parsedRequestTarget(raw));
    }
  });

  it.each([
    ['/v1/web/monitors/..', '/v1/web/monitors/..', ''],
    ['/v1/web/jobs/.?limit=2', '/v1/web/jobs/.', '?limit=2'],
    ['/v1/web/jobs/%2E%2e', '/v1/web/jobs/%2E%2e', ''],
    ['/v1/web/jobs/abc?x=1?y', '/v1/web/jobs/abc', '?x=1?y'],
    ['/v1/web/jobs/a b', '/v1/web/jobs/a%20b', ''],
  ])('keeps %s as the server reads it', (raw, pathname, search) => {
    expect(requestTarget(raw)).toEqual({ pathname, search });
  });
});

describe('a dot-segment path id', () => {
  let targets: RunningTarget[];
  beforeAll(async () => {
    targets = await startMockAndServer();
  });
  afterAll(() => Promise.all(targets.map((target) => target.close())));

  it.each(['DELETE /web/monitors/..', 'PATCH /web/monitors/..', 'GET /web/jobs/.', 'DELETE /web/jobs/%2e%2e'])(
    '%s answers on the mock as on the server (the mock resolved it away to an unknown path: 404 endpoint_not_found without the RateLimit fields)',
    async (call) => {
      const [method, path] = call.split(' ') as [string, string];
      const answers = await Promise.all(targets.map(async (target) => [await sendRaw(target.baseUrl, method, path), await sendRaw(target.baseUrl, method, path, target.key)]));
      const [server, mock] = answers;
      expect(mock!.map(({ status, code }) => [status, code])).toEqual(server!.map(({ status, code }) => [status, code]));
      expect(server![0]!.status).toBe(401);
      expect(mock![1]!.rateLimit).toBeDefined();
    },
  );
});
