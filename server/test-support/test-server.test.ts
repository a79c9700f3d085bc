/**
 * The test server's close() stops its job runner before it closes the database, as serve.ts does:
 * a job the runner still held kept its lease renewed every third of the lease time, and each
 * renewal on the closed database printed "periodic work failed … statement has been finalized"
 * in whichever test file the worker ran next.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStores } from '../store/index.ts';
import { startTestServer } from './test-server.ts';

describe('the test server', () => {
  let folder: string;
  beforeAll(async () => (folder = await mkdtemp(join(tmpdir(), 'test-server-'))));
  afterAll(() => rm(folder, { recursive: true, force: true }));

  it('close() stops its job runner first: the lease of a job the runner still holds is released', async () => {
    const databaseUrl = join(folder, 'service.sqlite');
    const server = await startTestServer({ databaseUrl });
    const { secret } = await server.key({ credits: 10 });
    const job = (await server.call('/web/batch-scrape', { method: 'POST', key: secret, body: { urls: ['https://example.com/1', 'https://example.com/2'] } })).body.data.job;
    await server.runner.tick();
    const leaseOwner = async () => (await server.stores.database.all<{ lease_owner: string | null }>('SELECT lease_owner FROM jobs WHERE id = ?', [job.id]))[0]!.lease_owner;
    expect(await leaseOwner()).not.toBeNull();

    await server.close();
    const reopened = await openStores(databaseUrl);
    try {
      expect((await reopened.database.all<{ lease_owner: string | null }>('SELECT lease_owner FROM jobs WHERE id = ?', [job.id]))[0]!.lease_owner).toBeNull();
    } finally {
      await reopened.database.close();
    }
  });
});

describe("the test servers' conversion pool", () => {
  it('is the one pool of the worker: a closed test server leaves it converting for the next one', async () => {
    const first = await startTestServer();
    await first.close();
    const second = await startTestServer();
    try {
      expect(second.pool).toBe(first.pool);
      const page = { requestedUrl: 'https://example.com/', url: 'https://example.com/', status: 200, contentType: 'text/html', body: Buffer.from('<html><body><h1>Kept</h1><p>A page converted after another test server closed.</p></body></html>') };
      const converted = await second.pool.html(page, { formats: ['markdown'], onlyMainContent: false, removeBase64Images: true, blockAds: true });
      expect(converted.markdown).toContain('Kept');
    } finally {
      await second.close();
    }
  });
});
