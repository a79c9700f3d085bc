/** The embedded SQLite database (node:sqlite): opened once, migrated to the latest schema at start-up. */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { MIGRATIONS } from './migrations.ts';

export type Database = DatabaseSync;

/** Opens (creating if needed) the database at `location` (a file path or `:memory:`) and migrates it. */
export function openDatabase(location: string): Database {
  if (location !== ':memory:') mkdirSync(dirname(location), { recursive: true });
  const database = new DatabaseSync(location);
  // busy_timeout first: switching to WAL takes a lock that another process opening the same new
  // database (the server and a key command started together) may hold for a moment.
  database.exec('PRAGMA busy_timeout = 5000; PRAGMA journal_mode = WAL; PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL;');
  migrate(database);
  return database;
}

/** Applies the migrations not yet applied; whether one is, is read inside its own write transaction, so processes opening the database together apply each once. */
function migrate(database: Database): void {
  database.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)');
  for (const [index, sql] of MIGRATIONS.entries()) {
    const version = index + 1;
    inTransaction(database, () => {
      if (database.prepare('SELECT 1 FROM schema_migrations WHERE version = ?').get(version)) return;
      database.exec(sql);
      database.prepare('INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)').run(version, new Date().toISOString());
    });
  }
}

/** Whether every migration this code knows is applied (a read of schema_migrations; throws when the database does not answer). */
export function migrationsApplied(database: Database): { applied: number; expected: number } {
  const row = prepared(database, 'SELECT COUNT(*) AS applied FROM schema_migrations WHERE version <= ?').get(MIGRATIONS.length) as { applied: number };
  return { applied: row.applied, expected: MIGRATIONS.length };
}

const statements = new WeakMap<Database, Map<string, StatementSync>>();

/** The prepared statement for `sql`, compiled once per database and reused. */
export function prepared(database: Database, sql: string): StatementSync {
  let cache = statements.get(database);
  if (!cache) statements.set(database, (cache = new Map()));
  let statement = cache.get(sql);
  if (!statement) cache.set(sql, (statement = database.prepare(sql)));
  return statement;
}

const depths = new WeakMap<Database, number>();

/**
 * Runs `work` in one write transaction (BEGIN IMMEDIATE, so another process cannot interleave a
 * write); nested calls become savepoints of the outer transaction, so steps compose atomically.
 */
export function inTransaction<T>(database: Database, work: () => T): T {
  const depth = depths.get(database) ?? 0;
  const savepoint = `nested_${depth}`;
  database.exec(depth === 0 ? 'BEGIN IMMEDIATE' : `SAVEPOINT ${savepoint}`);
  depths.set(database, depth + 1);
  try {
    const result = work();
    database.exec(depth === 0 ? 'COMMIT' : `RELEASE ${savepoint}`);
    return result;
  } catch (error) {
    database.exec(depth === 0 ? 'ROLLBACK' : `ROLLBACK TO ${savepoint}; RELEASE ${savepoint}`);
    throw error;
  } finally {
    depths.set(database, depth);
  }
}
