/** The key commands operators use, on a real database file, as separate processes. */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStores } from '../store/index.ts';

const run = promisify(execFile);

describe('key commands', () => {
  let folder: string;
  let env: NodeJS.ProcessEnv;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'keys-'));
    env = { ...process.env, DATABASE_URL: join(folder, 'keys.sqlite') };
  });
  afterAll(() => rm(folder, { recursive: true, force: true }));

  const keys = (...args: string[]) => run(process.execPath, ['server/cli/keys.ts', ...args], { env });

  it('creates a key, printing it alone on the last line, stored only hashed', async () => {
    const { stdout } = await keys('create', '--credits', '250', '--scopes', 'web,finance', '--expires-in', '3600', '--sandbox', '--name', 'frontend team');
    const secret = stdout.trim().split('\n').at(-1)!;
    expect(secret).toMatch(/^wsdq_test_[0-9A-Za-z]{32}$/);
    expect(stdout).toContain('whsec_');
    const database = await readFile(join(folder, 'keys.sqlite'));
    expect(database.includes(Buffer.from(secret))).toBe(false);

    const stores = openStores(env.DATABASE_URL!);
    const key = stores.keys.findBySecret(secret)!;
    expect(key).toMatchObject({ balance: 250, scopes: ['web', 'finance'], sandbox: true, name: 'frontend team' });
    expect(Date.parse(key.expiresAt!) - Date.parse(key.createdAt)).toBe(3_600_000);
    stores.database.close();
  });

  it('creates keys from several processes at once on a brand-new database, migrating it once', async () => {
    const fresh = { ...process.env, DATABASE_URL: join(folder, 'fresh.sqlite') };
    const created = await Promise.all(Array.from({ length: 5 }, () => run(process.execPath, ['server/cli/keys.ts', 'create', '--credits', '1'], { env: fresh })));
    expect(new Set(created.map(({ stdout }) => stdout.trim().split('\n').at(-1))).size).toBe(5);
    const stores = openStores(fresh.DATABASE_URL!);
    expect(stores.keys.list()).toHaveLength(5);
    const versions = stores.database.prepare('SELECT version FROM schema_migrations ORDER BY version').all().map((row) => row.version);
    expect(versions).toEqual(Array.from({ length: versions.length }, (_, index) => index + 1));
    stores.database.close();
  });

  it('lists, tops up and revokes keys by id or prefix', async () => {
    const secret = (await keys('create', '--credits', '5')).stdout.trim().split('\n').at(-1)!;
    const prefix = secret.slice(0, 14);
    expect((await keys('list')).stdout).toContain(`${prefix}…`);
    expect((await keys('credit', prefix, '--credits', '10')).stdout).toContain('balance 15');
    expect((await keys('revoke', prefix)).stdout).toMatch(/^Revoked key_/);
    expect((await keys('list')).stdout).toMatch(new RegExp(`${prefix}….*revoked`));
  });

  it.each([
    { args: ['create'], message: '--credits must be a whole number, got ""' },
    { args: ['create', '--credits', '10', '--scopes', 'web,video'], message: '--scopes takes platforms from web, shortvideo, finance, microblog, socialnet; got "web,video"' },
    { args: ['credit', 'key_nope', '--credits', '1'], message: 'no key key_nope' },
    { args: ['fly'], message: 'usage: node server/cli/keys.ts <create|list|revoke|credit> [options]' },
  ])('refuses $args with a precise message and exit code 2', async ({ args, message }) => {
    const failure = await keys(...args).catch((error: { code: number; stderr: string }) => error);
    expect(failure).toMatchObject({ code: 2 });
    expect((failure as { stderr: string }).stderr).toContain(message);
  });
});
