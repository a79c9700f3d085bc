/**
 * A private PostgreSQL cluster for the tests and for an operator trying several instances
 * (`npm run db:start`): Debian's binaries, `initdb` as the `postgres` user (initdb refuses root),
 * listening on a Unix socket in its own folder only (no TCP), without fsync. A migrated template
 * database gives each test worker a fresh database in one `CREATE DATABASE … TEMPLATE …`.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chown, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { PostgresDatabase } from '../store/postgres/postgres-database.ts';

const run = promisify(execFile);

/** The database every test database is copied from: migrated once, never connected to afterwards. */
export const TEMPLATE_DATABASE = 'wsdq_template';

export interface PostgresCluster {
  /** The folder holding the data directory and the socket. */
  folder: string;
  socketFolder: string;
  /** The URL of `database` on this cluster, as the `postgres` user over the socket. */
  url(database: string): string;
  /** Creates `name` from the migrated template and answers its URL. */
  createDatabase(name: string): Promise<string>;
  stop(): Promise<void>;
}

/** Where Debian keeps the server binaries: `pg_config --bindir`, else the newest /usr/lib/postgresql/<version>/bin. */
export async function postgresBinaries(): Promise<string> {
  try {
    const bindir = (await run('pg_config', ['--bindir'])).stdout.trim();
    if (existsSync(join(bindir, 'initdb'))) return bindir;
  } catch {
    // No pg_config on PATH: look where the packages put the binaries.
  }
  const versions = existsSync('/usr/lib/postgresql') ? readdirSync('/usr/lib/postgresql').filter((name) => /^\d+$/.test(name)).sort((a, b) => Number(b) - Number(a)) : [];
  for (const version of versions) {
    const bindir = `/usr/lib/postgresql/${version}/bin`;
    if (existsSync(join(bindir, 'initdb'))) return bindir;
  }
  throw new Error('PostgreSQL is not installed: no initdb under `pg_config --bindir` or /usr/lib/postgresql/*/bin (scripts/setup.sh installs Debian\'s postgresql package)');
}

/** Runs a server binary as the `postgres` user when this process is root (initdb and postgres refuse root), else as this user. */
async function runAsOwner(binary: string, args: string[]): Promise<string> {
  const asRoot = userInfo().uid === 0;
  const [command, commandArgs] = asRoot ? ['runuser', ['-u', 'postgres', '--', binary, ...args]] : [binary, args];
  try {
    return (await run(command, commandArgs, { cwd: '/' })).stdout;
  } catch (error) {
    const { stderr, stdout } = error as { stderr?: string; stdout?: string };
    throw new Error(`${binary} ${args.join(' ')} failed: ${stderr || stdout || (error as Error).message}`);
  }
}

async function ownerIds(): Promise<{ uid: number; gid: number } | undefined> {
  if (userInfo().uid !== 0) return undefined;
  const [uid, gid] = await Promise.all([run('id', ['-u', 'postgres']), run('id', ['-g', 'postgres'])]);
  return { uid: Number(uid.stdout), gid: Number(gid.stdout) };
}

/**
 * Starts a cluster in `folder` (a new temporary folder when not given), creating it on first use,
 * with the template database migrated. `stop()` stops it; `removeOnStop` also deletes the folder.
 */
export async function startPostgresCluster(options: { folder?: string; removeOnStop?: boolean } = {}): Promise<PostgresCluster> {
  const bindir = await postgresBinaries();
  const folder = options.folder ?? (await mkdtemp(join(tmpdir(), 'wsdq-postgres-')));
  const data = join(folder, 'data');
  const socketFolder = join(folder, 'socket');
  const owner = await ownerIds();
  await mkdir(socketFolder, { recursive: true });
  if (owner) for (const path of [folder, socketFolder]) await chown(path, owner.uid, owner.gid);

  if (!existsSync(join(data, 'PG_VERSION'))) {
    await runAsOwner(join(bindir, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--locale=C', '--no-sync']);
  }
  const settings = [
    `-k ${socketFolder}`, "-c listen_addresses=''", '-c fsync=off', '-c full_page_writes=off', '-c synchronous_commit=off', '-c max_connections=200',
  ].join(' ');
  if (!(await isRunning(bindir, data))) {
    await runAsOwner(join(bindir, 'pg_ctl'), ['-D', data, '-l', join(folder, 'server.log'), '-o', settings, '-w', '-t', '60', 'start']);
  }

  const url = (database: string) => `postgres://postgres@/${database}?host=${socketFolder}`;
  const admin = async <T>(work: (client: pg.Client) => Promise<T>): Promise<T> => {
    const client = new pg.Client({ connectionString: url('postgres') });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  };
  const exists = (name: string) => admin(async (client) => ((await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount ?? 0) > 0);
  if (!(await exists(TEMPLATE_DATABASE))) {
    await admin((client) => client.query(`CREATE DATABASE ${TEMPLATE_DATABASE}`));
    await (await PostgresDatabase.open(url(TEMPLATE_DATABASE))).close();
  }

  return {
    folder,
    socketFolder,
    url,
    async createDatabase(name) {
      if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a plain database name: ${name}`);
      if (!(await exists(name))) await admin((client) => client.query(`CREATE DATABASE ${name} TEMPLATE ${TEMPLATE_DATABASE}`));
      return url(name);
    },
    async stop() {
      await stopPostgresCluster(folder);
      if (options.removeOnStop ?? !options.folder) await rm(folder, { recursive: true, force: true });
    },
  };
}

async function isRunning(bindir: string, data: string): Promise<boolean> {
  try {
    await runAsOwner(join(bindir, 'pg_ctl'), ['-D', data, 'status']);
    return true;
  } catch {
    return false;
  }
}

/** Stops the cluster kept in `folder` (started by startPostgresCluster), if it runs. */
export async function stopPostgresCluster(folder: string): Promise<void> {
  const bindir = await postgresBinaries();
  const data = join(folder, 'data');
  if (await isRunning(bindir, data)) await runAsOwner(join(bindir, 'pg_ctl'), ['-D', data, '-m', 'fast', '-w', 'stop']);
}
