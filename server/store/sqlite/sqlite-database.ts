/**
 * The embedded SQLite backend (node:sqlite): one connection, opened once and migrated at start-up.
 * Statements run synchronously under the promise interface; a transaction holds the connection, so
 * a statement from outside it waits until it ends rather than joining it.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import type { SqlDatabase, SqlValue } from '../sql.ts';
import { MIGRATIONS } from './migrations.ts';

interface Transaction {
  open: boolean;
  depth: number;
}

export class SqliteDatabase implements SqlDatabase {
  readonly dialect = 'sqlite';
  /** The node:sqlite connection itself (tests reach it to break or inspect the database). */
  readonly connection: DatabaseSync;
  private readonly statements = new Map<string, StatementSync>();
  private readonly transactions = new AsyncLocalStorage<Transaction>();
  private held = false;
  private readonly waiting: (() => void)[] = [];

  /** Opens (creating if needed) the database at `location` (a file path or `:memory:`) and migrates it. */
  constructor(location: string) {
    if (location !== ':memory:') mkdirSync(dirname(location), { recursive: true });
    this.connection = new DatabaseSync(location);
    // busy_timeout first: switching to WAL takes a lock that another process opening the same new
    // database (the server and a key command started together) may hold for a moment.
    this.connection.exec('PRAGMA busy_timeout = 5000; PRAGMA journal_mode = WAL; PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL;');
    this.migrate();
  }

  run(sql: string, params: readonly SqlValue[] = []): Promise<number> {
    return this.execute(() => Number(this.statement(sql).run(...params).changes));
  }

  get<T>(sql: string, params: readonly SqlValue[] = []): Promise<T | undefined> {
    return this.execute(() => this.statement(sql).get(...params) as T | undefined);
  }

  all<T>(sql: string, params: readonly SqlValue[] = []): Promise<T[]> {
    return this.execute(() => this.statement(sql).all(...params) as T[]);
  }

  async transaction<T>(work: () => Promise<T>): Promise<T> {
    const current = this.transactions.getStore();
    if (current?.open) return this.savepoint(current, work);
    await this.acquire();
    const transaction: Transaction = { open: true, depth: 0 };
    try {
      // BEGIN IMMEDIATE, so another process cannot interleave a write.
      this.connection.exec('BEGIN IMMEDIATE');
      try {
        const result = await this.transactions.run(transaction, work);
        this.connection.exec('COMMIT');
        return result;
      } catch (error) {
        this.connection.exec('ROLLBACK');
        throw error;
      }
    } finally {
      transaction.open = false;
      this.release();
    }
  }

  inTransaction(): boolean {
    return this.transactions.getStore()?.open === true;
  }

  async migrationsApplied(): Promise<{ applied: number; expected: number }> {
    const row = (await this.get<{ applied: number }>('SELECT COUNT(*) AS applied FROM schema_migrations WHERE version <= ?', [MIGRATIONS.length]))!;
    return { applied: row.applied, expected: MIGRATIONS.length };
  }

  async close(): Promise<void> {
    if (this.connection.isOpen) this.connection.close();
  }

  private async savepoint<T>(transaction: Transaction, work: () => Promise<T>): Promise<T> {
    const name = `nested_${++transaction.depth}`;
    this.connection.exec(`SAVEPOINT ${name}`);
    try {
      const result = await work();
      this.connection.exec(`RELEASE ${name}`);
      return result;
    } catch (error) {
      this.connection.exec(`ROLLBACK TO ${name}; RELEASE ${name}`);
      throw error;
    } finally {
      transaction.depth--;
    }
  }

  /** The prepared statement for `sql`, compiled once and reused. */
  private statement(sql: string): StatementSync {
    let statement = this.statements.get(sql);
    if (!statement) this.statements.set(sql, (statement = this.connection.prepare(sql)));
    return statement;
  }

  /** Whether a statement must wait: a transaction holds the connection and the statement is not part of it. */
  private mustWait(): boolean {
    return this.held && !this.transactions.getStore()?.open;
  }

  /** Runs one statement now, or, while a transaction it is not part of holds the connection, once that transaction ends. */
  private async execute<T>(statement: () => T): Promise<T> {
    if (!this.mustWait()) return statement();
    await this.acquire();
    try {
      return statement();
    } finally {
      this.release();
    }
  }

  private async acquire(): Promise<void> {
    if (!this.held) {
      this.held = true;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  /** Hands the connection to the next in line, or frees it. */
  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.held = false;
  }

  /** Applies the migrations not yet applied; whether one is, is read inside its own write transaction, so processes opening the database together apply each once. */
  private migrate(): void {
    this.connection.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)');
    for (const [index, sql] of MIGRATIONS.entries()) {
      const version = index + 1;
      this.connection.exec('BEGIN IMMEDIATE');
      try {
        if (!this.connection.prepare('SELECT 1 FROM schema_migrations WHERE version = ?').get(version)) {
          this.connection.exec(sql);
          this.connection.prepare('INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)').run(version, new Date().toISOString());
        }
        this.connection.exec('COMMIT');
      } catch (error) {
        this.connection.exec('ROLLBACK');
        throw error;
      }
    }
  }
}
