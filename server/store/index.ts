/** Every store over one database, built once and handed to the app. */
import { ApiKeyStore } from './api-keys.ts';
import { IdempotencyRecords } from './idempotency-records.ts';
import { JobStore } from './jobs.ts';
import { Ledger, type LedgerObserver } from './ledger.ts';
import { MonitorStore } from './monitors.ts';
import { ResponseCache } from './response-cache.ts';
import type { SqlDatabase } from './sql.ts';
import { isPostgresUrl } from './database-url.ts';
import { PostgresDatabase } from './postgres/postgres-database.ts';
import { RateLimitWindows } from './rate-limit-windows.ts';
import { SqliteDatabase } from './sqlite/sqlite-database.ts';
import { WebhookMessages } from './webhook-messages.ts';

export interface Stores {
  database: SqlDatabase;
  keys: ApiKeyStore;
  ledger: Ledger;
  idempotency: IdempotencyRecords;
  cache: ResponseCache;
  jobs: JobStore;
  monitors: MonitorStore;
  webhooks: WebhookMessages;
  rateLimits: RateLimitWindows;
}

export interface StoreOptions {
  /** Told of every charge and refund (the service's metrics). */
  ledgerObserver?: LedgerObserver;
}

/** Opens the database at `location` (migrating it) and builds the stores over it: PostgreSQL for a postgres:// or postgresql:// URL, else SQLite (a file path or `:memory:`). */
export async function openStores(location: string, options: StoreOptions = {}): Promise<Stores> {
  const database = isPostgresUrl(location) ? await PostgresDatabase.open(location) : new SqliteDatabase(location);
  return storesOver(database, options);
}

/** The stores over an open database. */
export function storesOver(database: SqlDatabase, options: StoreOptions = {}): Stores {
  return {
    database,
    keys: new ApiKeyStore(database),
    ledger: new Ledger(database, options.ledgerObserver),
    idempotency: new IdempotencyRecords(database),
    cache: new ResponseCache(database),
    jobs: new JobStore(database),
    monitors: new MonitorStore(database),
    webhooks: new WebhookMessages(database),
    rateLimits: new RateLimitWindows(database),
  };
}
