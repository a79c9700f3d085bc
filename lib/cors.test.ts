/**
 * CORS, decided once for the server and the mock: none unless `CORS_ORIGINS` allows an origin;
 * then its preflights answer 204 and its answers expose the envelope headers.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, readConfig } from '../server/config.ts';
import { startMockAndServer, type RunningTarget } from '../server/test-support/mock-and-server.ts';
import { parseCorsOrigins } from './cors.ts';

const FRONTEND = 'http://localhost:5173';
const preflight = (origin: string) => ({ method: 'OPTIONS', headers: { Origin: origin, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'x-api-key, content-type' } });

describe('without CORS_ORIGINS', async () => {
  let targets: RunningTarget[] = [];
  beforeAll(async () => (targets = await startMockAndServer()));
  afterAll(() => Promise.all(targets.map((target) => target.close())));

  it.each(['server', 'mock'])('the %s answers a preflight 405 method_not_allowed with Allow and no Access-Control header (the mock answered 204)', async (name) => {
    const target = targets.find((candidate) => candidate.name === name)!;
    const answer = await fetch(`${target.baseUrl}/web/crawl`, preflight(FRONTEND));
    expect(answer.status).toBe(405);
    const body = await answer.json();
    expect(body.error).toMatchObject({ code: 'method_not_allowed', message: '/v1/web/crawl does not accept OPTIONS; it accepts POST.' });
    expect(answer.headers.get('allow')).toBe('POST');
    expect([...answer.headers.keys()].filter((header) => header.startsWith('access-control-'))).toEqual([]);

    const call = await fetch(`${target.baseUrl}/web/jobs`, { headers: { 'x-api-key': target.key, Origin: FRONTEND } });
    expect(call.status).toBe(200);
    expect(call.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('with CORS_ORIGINS', async () => {
  let targets: RunningTarget[] = [];
  beforeAll(async () => (targets = await startMockAndServer({ corsOrigins: [FRONTEND] })));
  afterAll(() => Promise.all(targets.map((target) => target.close())));

  it.each([
    { name: 'server', allowHeaders: 'x-api-key, content-type, idempotency-key, cache-control' },
    { name: 'mock', allowHeaders: 'x-api-key, content-type, idempotency-key, cache-control, prefer' },
  ])('the $name answers an allowed origin\'s preflight 204 with the path\'s methods', async ({ name, allowHeaders }) => {
    const target = targets.find((candidate) => candidate.name === name)!;
    const answer = await fetch(`${target.baseUrl}/web/monitors/mon_01JD8XE6SZAEAVSNTCPM5Q1NXW`, preflight(FRONTEND));
    expect(answer.status).toBe(204);
    expect(Object.fromEntries([...answer.headers].filter(([header]) => header.startsWith('access-control-') || header === 'vary'))).toEqual({
      'access-control-allow-origin': FRONTEND,
      'access-control-allow-methods': 'GET, DELETE, PATCH',
      'access-control-allow-headers': allowHeaders,
      'access-control-max-age': '600',
      vary: 'Origin',
    });
  });

  it.each(['server', 'mock'])('the %s exposes the envelope headers on an allowed origin\'s answers, errors included', async (name) => {
    const target = targets.find((candidate) => candidate.name === name)!;
    for (const headers of [{ 'x-api-key': target.key }, {}] as Record<string, string>[]) {
      const answer = await fetch(`${target.baseUrl}/web/jobs`, { headers: { ...headers, Origin: FRONTEND } });
      expect(answer.headers.get('access-control-allow-origin')).toBe(FRONTEND);
      expect(answer.headers.get('access-control-expose-headers')).toBe('X-Request-Id, X-Credits-Used, X-Credits-Remaining, X-Cache, Idempotent-Replayed, Retry-After, RateLimit, RateLimit-Policy, Allow');
      expect(answer.headers.get('vary')).toBe('Origin');
    }
  });

  it.each(['server', 'mock'])('the %s gives a disallowed origin no Access-Control header: its preflight is a 405', async (name) => {
    const target = targets.find((candidate) => candidate.name === name)!;
    const answer = await fetch(`${target.baseUrl}/web/crawl`, preflight('https://elsewhere.example'));
    expect(answer.status).toBe(405);
    expect((await answer.json()).error.code).toBe('method_not_allowed');
    expect([...answer.headers.keys()].filter((header) => header.startsWith('access-control-'))).toEqual([]);
  });

  it.each(['server', 'mock'])('the %s answers a preflight for an unknown path 404 endpoint_not_found', async (name) => {
    const target = targets.find((candidate) => candidate.name === name)!;
    const answer = await fetch(`${target.baseUrl}/web/nowhere`, preflight(FRONTEND));
    expect(answer.status).toBe(404);
    expect((await answer.json()).error.code).toBe('endpoint_not_found');
  });
});

describe('CORS_ORIGINS', () => {
  it.each([
    { text: undefined, origins: null },
    { text: '', origins: null },
    { text: '*', origins: '*' },
    { text: 'https://App.example.com, http://localhost:5173', origins: ['https://app.example.com', 'http://localhost:5173'] },
  ])('reads "$text"', ({ text, origins }) => {
    expect(parseCorsOrigins(text)).toEqual(origins);
  });

  it.each(['app.example.com', 'https://app.example.com/', 'https://app.example.com/path', 'https://*.example.com', 'https://a.example.com,*'])('refuses "%s" on the server: a Configuration error naming CORS_ORIGINS', (text) => {
    expect(() => readConfig({ CORS_ORIGINS: text })).toThrow(ConfigError);
    expect(() => readConfig({ CORS_ORIGINS: text })).toThrow(/^CORS_ORIGINS must be \* or a comma-separated list of origins/);
  });

  it('stops the mock at start-up naming CORS_ORIGINS, exit 2', async () => {
    const child = spawn(process.execPath, ['mock/main.ts'], { env: { ...process.env, PORT: '0', CORS_ORIGINS: 'localhost:5173' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const [code] = await once(child, 'exit');
    expect(code).toBe(2);
    expect(stderr).toContain('Configuration error: CORS_ORIGINS must be * or a comma-separated list of origins');
    expect(stderr).toContain('got "localhost:5173"');
  });
});
