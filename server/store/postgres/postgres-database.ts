/**
 * The PostgreSQL backend (`pg` with a pool), for several server instances on one database. A
 * statement outside a transaction takes any pooled connection; a transaction holds one connection
 * from BEGIN to COMMIT, and every statement its work makes (through any store) goes over it.
 * Migrations run at start-up under an advisory lock, so instances starting together apply each once.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import pg from 'pg';
import type { SqlDatabase, SqlValue } from '../sql.ts';
import { POSTGRES_MIGRATIONS } from './migrations.ts';

interface Transaction {
  client: pg.PoolClient;
  open: boolean;
  depth: number;
}

/** The advisory lock every instance takes to migrate (any constant, the same in every instance). */
const MIGRATION_LOCK = 7_413_020_261;

/** Connections per instance: enough for concurrent requests, few enough for several instances under max_connections (100). */
const POOL_SIZE = 10;

/** bigint (counts, milliseconds, ids) read as a number: every value the stores keep is far below 2^53. */
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => (oid === pg.types.builtins.INT8 ? Number : pg.types.getTypeParser(oid, format as 'text'))) as typeof pg.types.getTypeParser,
};

/** `?` placeholders as PostgreSQL's `$1, $2, …` (the stores' SQL has no `?` inside string literals). */
export function positional(sql: string): string {
  let index = 0;
  return sql.replace(/\?/g, () => `$${++index}`);
}

export class PostgresDatabase implements SqlDatabase {
  readonly dialect = 'postgres';
  private readonly pool: pg.Pool;
  private readonly transactions = new AsyncLocalStorage<Transaction>();

  private constructor(url: string) {
    this.pool = new pg.Pool({ connectionString: url, max: POOL_SIZE, types });
    // An idle connection the server ends (a restart) is dropped from the pool, not thrown at the process.
    this.pool.on('error', () => {});
  }

  /** Connects to the database at `url` (a postgres:// or postgresql:// URL, libpq's forms) and migrates it. */
  static async open(url: string): Promise<PostgresDatabase> {
    const database = new PostgresDatabase(url);
    try {
      await database.migrate();
    } catch (error) {
      await database.close();
      throw error;
    }
    return database;
  }

  async run(sql: string, params: readonly SqlValue[] = []): Promise<number> {
    return (await this.query(sql, params)).rowCount ?? 0;
  }

  async get<T>(sql: string, params: readonly SqlValue[] = []): Promise<T | undefined> {
    return (await this.query(sql, params)).rows[0] as T | undefined;
  }

  async all<T>(sql: string, params: readonly SqlValue[] = []): Promise<T[]> {
    return (await this.query(sql, params)).rows as T[];
  }

  async transaction<T>(work: () => Promise<T>): Promise<T> {
    const current = this.transactions.getStore();
    if (current?.open) return this.savepoint(current, work);
    const client = await this.pool.connect();
    const transaction: Transaction = { client, open: true, depth: 0 };
    let broken = false;
    try {
      await client.query('BEGIN');
      try {
        const result = await this.transactions.run(transaction, work);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => (broken = true));
        throw error;
      }
    } finally {
      transaction.open = false;
      client.release(broken);
    }
  }

  inTransaction(): boolean {
    return this.transactions.getStore()?.open === true;
  }

  async migrationsApplied(): Promise<{ applied: number; expected: number }> {
    const row = (await this.get<{ applied: number }>('SELECT COUNT(*)::int AS applied FROM schema_migrations WHERE version <= ?', [POSTGRES_MIGRATIONS.length]))!;
    return { applied: row.applied, expected: POSTGRES_MIGRATIONS.length };
  }

  async close(): Promise<void> {
    if (!this.pool.ended) await this.pool.end();
  }

  private query(sql: string, params: readonly SqlValue[]): Promise<pg.QueryResult> {
    const transaction = this.transactions.getStore();
    const on = transaction?.open ? transaction.client : this.pool;
    return on.query(positional(sql), params as SqlValue[]);
  }

  private async savepoint<T>(transaction: Transaction, work: () => Promise<T>): Promise<T> {
    const name = `nested_${++transaction.depth}`;
    await transaction.client.query(`SAVEPOINT ${name}`);
    try {
      const result = await work();
      await transaction.client.query(`RELEASE SAVEPOINT ${name}`);
      return result;
    } catch (error) {
      await transaction.client.query(`ROLLBACK TO SAVEPOINT ${name}`);
      await transaction.client.query(`RELEASE SAVEPOINT ${name}`);
      throw error;
    } finally {
      transaction.depth--;
    }
  }

  /** Applies the migrations not yet applied, each in its own transaction, holding the migration lock throughout. */
  private async migrate(): Promise<void> {
    const client = await this.pool.connect();
    try {
      await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
      try {
        await client.query('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)');
        for (const [index, sql] of POSTGRES_MIGRATIONS.entries()) {
          const version = index + 1;
          if ((await client.query('SELECT 1 FROM schema_migrations WHERE version = $1', [version])).rowCount) continue;
          await client.query('BEGIN');
          try {
            await client.query(sql);
            await client.query('INSERT INTO schema_migrations (version, applied_at) VALUES ($1, $2)', [version, new Date().toISOString()]);
            await client.query('COMMIT');
          } catch (error) {
            await client.query('ROLLBACK');
            throw error;
          }
        }
      } finally {
        await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
      }
    } finally {
      client.release();
    }
  }
}
