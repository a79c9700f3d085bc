/** A crawl running when the server process is killed resumes when it starts again: no page lost, none charged twice. */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStores } from '../store/index.ts';
import { issueKey } from '../test-support/issue-key.ts';

const PAGES = 40;

describe('a crawl across a killed server', () => {
  let site: Server;
  let origin: string;
  let folder: string;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    site = createServer((request, response) => {
      const index = Number(/\/page\/(\d+)/.exec(request.url ?? '')?.[1] ?? 0);
      const links = [1, 2, 3, 4, 5].map((step) => index + step).filter((next) => next < PAGES).map((next) => `<a href="/site/page/${next}">next ${next}</a>`).join(' ');
      setTimeout(() => {
        response.writeHead(200, { 'content-type': 'text/html' });
        response.end(`<html><head><title>Page ${index}</title></head><body><h1>Page ${index}</h1><p>Text of page ${index}.</p>${links}</body></html>`);
      }, 40);
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    folder = await mkdtemp(join(tmpdir(), 'restart-'));
    env = { ...process.env, DATABASE_URL: join(folder, 'service.sqlite'), ALLOW_PRIVATE_NETWORK: 'true', JOB_TICK_MS: '20', LEASE_MS: '1000', LOG_LEVEL: 'warn', PORT: '0' };
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => site.close(() => resolve()));
    await rm(folder, { recursive: true, force: true });
  });

  async function startServer(): Promise<{ child: ChildProcess; baseUrl: string }> {
    const child = spawn(process.execPath, ['server/main.ts'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk));
    const baseUrl = await new Promise<string>((resolve, reject) => {
      child.stdout!.on('data', (chunk: Buffer) => {
        output += chunk;
        const match = /listening on (\S+)/.exec(output);
        if (match) resolve(match[1]!);
      });
      child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${output}`)));
    });
    child.stdout!.resume();
    return { child, baseUrl };
  }

  it('resumes after SIGKILL and completes with every page once', async () => {
    const key = await issueKey(String(env.DATABASE_URL), { credits: 1000 });
    const headers = { 'x-api-key': key, 'content-type': 'application/json' };

    const first = await startServer();
    const submitted = await (await fetch(`${first.baseUrl}/web/crawl`, { method: 'POST', headers, body: JSON.stringify({ url: `${origin}/site/page/0`, limit: PAGES, max_depth: 10, formats: 'markdown' }) })).json();
    const jobId = submitted.data.job.id;
    await expect.poll(async () => (await (await fetch(`${first.baseUrl}/web/jobs/${jobId}`, { headers })).json()).data.job.pages_completed, { timeout: 20_000, interval: 50 }).toBeGreaterThanOrEqual(4);
    const killed = once(first.child, 'exit');
    first.child.kill('SIGKILL');
    await killed;

    const second = await startServer();
    await expect.poll(async () => (await (await fetch(`${second.baseUrl}/web/jobs/${jobId}`, { headers })).json()).data.job.status, { timeout: 30_000, interval: 100 }).toBe('completed');
    const done = (await (await fetch(`${second.baseUrl}/web/jobs/${jobId}?limit=100`, { headers })).json()).data;
    const stopped = once(second.child, 'exit');
    second.child.kill('SIGTERM');
    await stopped;

    const urls = done.pages.map((page: { url: string }) => page.url);
    expect(urls).toHaveLength(PAGES);
    expect(new Set(urls).size).toBe(PAGES);
    expect(done.job).toMatchObject({ pages_completed: PAGES, credits_used: PAGES + 1 });
    const stores = await openStores(String(env.DATABASE_URL));
    const keyId = (await stores.keys.findBySecret(key))!.id;
    const pageCharges = (await stores.ledger.entries(keyId)).filter((entry) => entry.jobId === jobId);
    expect(pageCharges).toHaveLength(PAGES);
    expect(await stores.ledger.balance(keyId)).toBe(1000 - PAGES - 1);
    await stores.database.close();
  }, 90_000);
});
