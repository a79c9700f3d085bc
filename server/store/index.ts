/** Every store over one database, built once and handed to the app. */
import { ApiKeyStore } from './api-keys.ts';
import { openDatabase, type Database } from './database.ts';
import { IdempotencyRecords } from './idempotency-records.ts';
import { JobStore } from './jobs.ts';
import { Ledger, type LedgerObserver } from './ledger.ts';
import { MonitorStore } from './monitors.ts';
import { ResponseCache } from './response-cache.ts';
import { WebhookMessages } from './webhook-messages.ts';

export interface Stores {
  database: Database;
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

/** Opens the database at `location` and builds the stores over it. */
export function openStores(location: string, options: StoreOptions = {}): Stores {
  const database = openDatabase(location);
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
