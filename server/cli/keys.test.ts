/**
 * The key commands operators use, on a real database file: most cases in-process (runKeyCommand);
 * those marked `via` as a process of their own, `node server/cli/keys.ts` or `npm run key:…`, which
 * covers the entry's exit code and streams, the npm scripts, and processes that share a brand-new database.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStores } from '../store/index.ts';
import { runKeyCommand } from './keys.ts';

const run = promisify(execFile);

/** The failure of a command that exits non-zero, shaped as execFile's, so both ways are asserted alike. */
type Failure = Error & { code: number; stdout: string; stderr: string };

/** Runs a key command in-process: resolves with its output on exit 0, else rejects with its code and output, as `execFile` does. */
async function inProcess(args: readonly string[], env: NodeJS.ProcessEnv): Promise<{ stdout: string; stderr: string }> {
  const { exitCode, stdout, stderr } = await runKeyCommand(args, env);
  if (exitCode !== 0) throw Object.assign(new Error(`key command ${args.join(' ')} exited ${exitCode}`), { code: exitCode, stdout, stderr }) as Failure;
  return { stdout, stderr };
}

/** Runs a key command as its own process, as `npm run key:*` does. */
const asProcess = (args: readonly string[], env: NodeJS.ProcessEnv) => run(process.execPath, ['server/cli/keys.ts', ...args], { env });

/** Runs a key command through its npm script: `['create', '--help']` is `npm run key:create -- --help`. */
const throughNpm = ([command, ...args]: readonly string[], env: NodeJS.ProcessEnv) => run('npm', ['run', '--silent', `key:${command}`, '--', ...args], { env });

/** Runs a key command the way a case names: in-process unless it says otherwise. */
const runner = (via?: 'process' | 'npm run') => (via === 'npm run' ? throughNpm : via === 'process' ? asProcess : inProcess);

describe('key commands', () => {
  let folder: string;
  let env: NodeJS.ProcessEnv;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'keys-'));
    env = { ...process.env, DATABASE_URL: join(folder, 'keys.sqlite') };
  });
  afterAll(() => rm(folder, { recursive: true, force: true }));

  const keys = (...args: string[]) => inProcess(args, env);

  it('creates a key, printing it alone on the last line, stored only hashed', async () => {
    const { stdout } = await keys('create', '--credits', '250', '--scopes', 'web,finance', '--expires-in', '3600', '--sandbox', '--name', 'frontend team');
    const secret = stdout.trim().split('\n').at(-1)!;
    expect(secret).toMatch(/^wsdq_test_[0-9A-Za-z]{32}$/);
    expect(stdout).toContain('whsec_');
    const database = await readFile(join(folder, 'keys.sqlite'));
    expect(database.includes(Buffer.from(secret))).toBe(false);

    const stores = await openStores(env.DATABASE_URL!);
    const key = (await stores.keys.findBySecret(secret))!;
    expect(key).toMatchObject({ balance: 250, scopes: ['web', 'finance'], sandbox: true, name: 'frontend team' });
    expect(Date.parse(key.expiresAt!) - Date.parse(key.createdAt)).toBe(3_600_000);
    await stores.database.close();
  });

  it('creates keys from several processes at once on a brand-new database, migrating it once', async () => {
    const fresh = { ...process.env, DATABASE_URL: join(folder, 'fresh.sqlite') };
    const created = await Promise.all(Array.from({ length: 5 }, () => asProcess(['create', '--credits', '1'], fresh)));
    expect(new Set(created.map(({ stdout }) => stdout.trim().split('\n').at(-1))).size).toBe(5);
    const stores = await openStores(fresh.DATABASE_URL!);
    expect(await stores.keys.list()).toHaveLength(5);
    const versions = (await stores.database.all<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version')).map((row) => row.version);
    expect(versions).toEqual(Array.from({ length: versions.length }, (_, index) => index + 1));
    await stores.database.close();
  });

  it('lists, tops up and revokes keys by id or prefix', async () => {
    const secret = (await keys('create', '--credits', '5')).stdout.trim().split('\n').at(-1)!;
    const prefix = secret.slice(0, 14);
    expect((await keys('list')).stdout).toContain(`${prefix}…`);
    expect((await keys('credit', prefix, '--credits', '10')).stdout).toContain('balance 15');
    expect((await keys('revoke', prefix)).stdout).toMatch(/^Revoked key_/);
    expect((await keys('list')).stdout).toMatch(new RegExp(`${prefix}….*revoked`));
  });

  // From here on each case writes nothing the others read (usage, help, refusals): they run side by
  // side, each asserting with its own `expect`. Those marked `via` run as a process of their own:
  // the exit code and the streams of the entry itself, and its npm script.
  it.concurrent.for([
    { args: ['create'], message: '--credits is required (an integer, 0 or more)', usage: 'Usage: npm run key:create -- --credits N [options]' },
    { args: ['create', '--credits', ''], message: '--credits is required (an integer, 0 or more)', usage: 'Usage: npm run key:create -- --credits N [options]' },
    { args: ['create', '--credits', 'ten'], message: '--credits must be an integer, 0 or more, got "ten"', usage: 'Usage: npm run key:create -- --credits N [options]', via: 'process' as const },
    { args: ['create', '--credits', '10', '--expires-in', '0'], message: '--expires-in must be an integer, 1 or more, got "0"', usage: 'Usage: npm run key:create -- --credits N [options]' },
    { args: ['create', '--credits', '10', '--scopes', 'web,video'], message: '--scopes takes platforms from web, shortvideo, finance, microblog, socialnet; got "web,video"', usage: 'Usage: npm run key:create -- --credits N [options]' },
    { args: ['create', '--credits', '10', '--rate-limit', 'fast'], message: '--rate-limit must be REQUESTS/SECONDS with both at least 1, such as 120/60, got "fast"', usage: 'Usage: npm run key:create -- --credits N [options]' },
    { args: ['create', '--help-me'], message: "Unknown option '--help-me'", usage: 'Usage: npm run key:create -- --credits N [options]' },
    { args: ['list', 'extra'], message: "Unexpected argument 'extra'", usage: 'Usage: npm run key:list' },
    { args: ['revoke'], message: "KEY is required: the key's id (key_…) or its prefix", usage: 'Usage: npm run key:revoke -- KEY' },
    { args: ['credit', 'key_nope'], message: '--credits is required (an integer, 1 or more)', usage: 'Usage: npm run key:credit -- KEY --credits N' },
    { args: ['credit', 'key_nope', '--credits', '0'], message: '--credits must be an integer, 1 or more, got "0"', usage: 'Usage: npm run key:credit -- KEY --credits N' },
    { args: ['fly'], message: 'unknown command "fly"', usage: 'npm run key:create  issues a key' },
    { args: [], message: 'name a command', usage: 'npm run key:create  issues a key', via: 'process' as const },
  ])('a usage error ($args) prints the message, then the usage, exit 2', async ({ args, message, usage, via }, { expect }) => {
    const failure = await runner(via)(args, env).catch((error: { code: number; stderr: string }) => error);
    expect(failure).toMatchObject({ code: 2 });
    const stderr = (failure as { stderr: string }).stderr;
    expect(stderr.startsWith(`error: ${message}`)).toBe(true);
    expect(stderr.indexOf(usage)).toBeGreaterThan(stderr.indexOf(message));
    expect(stderr).not.toContain('got ""');
  });

  it.concurrent('an unknown key is refused with its name and exit 2, without the usage', async ({ expect }) => {
    const failure = await keys('credit', 'key_nope', '--credits', '1').catch((error: { code: number; stderr: string }) => error);
    expect(failure).toMatchObject({ code: 2, stderr: 'error: no key key_nope (key:list shows the keys)\n' });
  });

  it.concurrent.for([
    { command: 'create', usage: 'Usage: npm run key:create -- --credits N [options]', option: '--credits N', example: 'npm run key:create -- --credits 1000 --sandbox', via: 'npm run' as const },
    { command: 'list', usage: 'Usage: npm run key:list', option: '-h, --help', example: 'npm run key:list' },
    { command: 'revoke', usage: 'Usage: npm run key:revoke -- KEY', option: 'KEY', example: 'npm run key:revoke -- key_' },
    { command: 'credit', usage: 'Usage: npm run key:credit -- KEY --credits N', option: '--credits N', example: 'npm run key:credit -- wsdq_live_' },
  ])('key:$command --help prints its usage, options with their meaning and an example, exit 0 (it said Unknown option)', async ({ command, usage, option, example, via }, { expect }) => {
    for (const flag of ['--help', '-h']) {
      const { stdout, stderr } = await runner(via)([command, flag], env);
      expect(stderr).toBe('');
      expect(stdout.startsWith(`${usage}\n`)).toBe(true);
      expect(stdout.split('\n').some((line) => line.startsWith(`  ${option}  `) && line.trim().length > option.length + 2)).toBe(true);
      expect(stdout).toMatch(/^Examples?:$/m);
      expect(stdout).toContain(`  ${example}`);
    }
  });

  it.concurrent('--help of no command lists the commands, exit 0', async ({ expect }) => {
    const { stdout } = await keys('--help');
    expect(stdout).toContain('npm run key:create  issues a key');
    expect(stdout).toContain('npm run key:credit  adds credits to a key');
  });

  it.concurrent('--help needs no database: it creates none', async ({ expect }) => {
    const nowhere = join(folder, 'never', 'created.sqlite');
    await inProcess(['create', '--help'], { ...env, DATABASE_URL: nowhere });
    await expect(readFile(nowhere)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it.concurrent.for([
    { name: 'a URL of another database', url: 'mysql://user:secret@db/keys', stderr: 'Configuration error: DATABASE_URL must be a SQLite file path, :memory:, or a postgres:// or postgresql:// URL, got a mysql: URL\n', via: 'process' as const },
    {
      name: 'a PostgreSQL URL that cannot be reached (its password masked)',
      url: 'postgres://user:secret@/keys?host=/nowhere-a-socket',
      stderr: 'Configuration error: DATABASE_URL: cannot open the database postgres://user:***@/keys?host=/nowhere-a-socket: connect ENOENT /nowhere-a-socket/.s.PGSQL.5432\n',
    },
  ])('a bad DATABASE_URL, $name, is refused as a configuration error naming it, exit 2', async ({ url, stderr, via }, { expect }) => {
    const failure = await runner(via)(['list'], { ...env, DATABASE_URL: url }).catch((error: { code: number; stderr: string }) => error);
    expect(failure).toMatchObject({ code: 2, stderr });
  });
});
