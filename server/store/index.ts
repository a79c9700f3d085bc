/** Every store over one database, built once and handed to the app. */
import { ApiKeyStore } from './api-keys.ts';
import { IdempotencyRecords } from './idempotency-records.ts';
import { JobStore } from './jobs.ts';
import { Ledger, type LedgerObserver } from './ledger.ts';
import { MonitorStore } from './monitors.ts';
import { ResponseCache } from './response-cache.ts';
import type { SqlDatabase } from './sql.ts';
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
}

export interface StoreOptions {
  /** Told of every charge and refund (the service's metrics). */
  ledgerObserver?: LedgerObserver;
}

/** Opens the database at `location` (migrating it) and builds the stores over it. */
export async function openStores(location: string, options: StoreOptions = {}): Promise<Stores> {
  return storesOver(new SqliteDatabase(location), options);
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
  };
}
