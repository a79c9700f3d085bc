/**
 * The one way the stores reach their database: plain SQL with `?` placeholders, every call
 * answering a promise, and transactions that nest (as savepoints). The SQLite backend
 * (sqlite/sqlite-database.ts) and the PostgreSQL backend (postgres/postgres-database.ts) implement it.
 */
export type SqlValue = string | number | null;

export interface SqlDatabase {
  /** Which engine answers, for the few statements that must differ between engines. */
  readonly dialect: 'sqlite' | 'postgres';
  /** Runs a statement that returns no rows; answers how many rows it changed. */
  run(sql: string, params?: readonly SqlValue[]): Promise<number>;
  /** The first row of a query, or undefined. */
  get<T>(sql: string, params?: readonly SqlValue[]): Promise<T | undefined>;
  /** Every row of a query. */
  all<T>(sql: string, params?: readonly SqlValue[]): Promise<T[]>;
  /**
   * Runs `work` in one write transaction: every statement `work` makes (through any store on this
   * database) is part of it, others wait or run beside it; a transaction started inside `work` is a
   * savepoint of it, so steps compose atomically. Rolls back when `work` throws.
   */
  transaction<T>(work: () => Promise<T>): Promise<T>;
  /**
   * Whether the caller runs inside an open transaction of this database (its statements join it).
   * A database that cannot tell (a wrapper) leaves it out, and its writes are never grouped.
   */
  inTransaction?(): boolean;
  /** How many of the migrations this code knows are applied (throws when the database does not answer). */
  migrationsApplied(): Promise<{ applied: number; expected: number }>;
  close(): Promise<void>;
}
