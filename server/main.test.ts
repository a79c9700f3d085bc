/** `npm start` as a process: serves /v1 with no set-up, refuses bad configuration by name, finishes in-flight work on SIGTERM. */
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

function start(env: Record<string, string>) {
  const child = spawn(process.execPath, ['server/main.ts'], { env: { ...process.env, LOG_LEVEL: 'warn', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk));
  return { child, output: () => output };
}

describe('the server process', () => {
  let folder: string;
  beforeAll(async () => (folder = await mkdtemp(join(tmpdir(), 'server-main-'))));
  afterAll(() => rm(folder, { recursive: true, force: true }));

  it('creates its database, serves /v1, and stops cleanly on SIGTERM', async () => {
    const server = start({ PORT: '0', DATABASE_URL: join(folder, 'fresh', 'service.sqlite') });
    await expect.poll(server.output, { timeout: 15_000 }).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+\/v1/);
    const baseUrl = /listening on (\S+)/.exec(server.output())![1]!;
    const answer = await fetch(`${baseUrl}/web/jobs`);
    expect(answer.status).toBe(401);
    expect((await answer.json()).error.code).toBe('api_key_missing');

    const exited = once(server.child, 'exit');
    server.child.kill('SIGTERM');
    expect((await exited)[0]).toBe(0);
    expect(server.output()).toContain('stopped');
  });

  it('lets an in-flight request finish on SIGTERM before it exits', async () => {
    const env = { DATABASE_URL: join(folder, 'inflight.sqlite') };
    const created = spawnSync(process.execPath, ['server/cli/keys.ts', 'create', '--credits', '10', '--sandbox'], { env: { ...process.env, ...env }, encoding: 'utf8' });
    const key = created.stdout.trim().split('\n').at(-1)!;
    const server = start({ PORT: '0', LOG_LEVEL: 'debug', ...env });
    await expect.poll(server.output, { timeout: 15_000 }).toMatch(/listening on/);
    const baseUrl = /listening on (\S+)/.exec(server.output())![1]!;

    const slow = fetch(`${baseUrl}/web/scrape?url=https://example.com/slow&wait_for=1500`, { headers: { 'x-api-key': key } });
    await expect.poll(server.output, { timeout: 10_000 }).toMatch(/"path":"\/v1\/web\/scrape","msg":"request received"/);
    const exited = once(server.child, 'exit');
    server.child.kill('SIGTERM');
    const answer = await slow;
    expect(answer.status).toBe(200);
    expect((await answer.json()).data.url).toBe('https://example.com/slow');
    expect((await exited)[0]).toBe(0);
  });

  it.each<{ env: Record<string, string>; message: string }>([
    { env: { PORT: 'http' }, message: 'PORT must be an integer from 0 to 65535, got "http"' },
    { env: { RATE_LIMIT: 'lots' }, message: 'RATE_LIMIT must be REQUESTS/SECONDS with both at least 1, such as 120/60, got "lots"' },
    { env: { PROVIDER_ROUTES: '{"searchWeb":"acme"}' }, message: 'PROVIDER_ROUTES routes searchWeb to "acme", which is not a provider' },
  ])('refuses to start with a bad configuration, naming the variable: $message', async ({ env, message }) => {
    const server = start({ DATABASE_URL: ':memory:', ...env });
    const [code] = await once(server.child, 'exit');
    expect(code).toBe(2);
    expect(server.output()).toContain(message);
  });
});
