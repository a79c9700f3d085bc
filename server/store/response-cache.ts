/** Cached `data` of operations that cache (`x-cache`), keyed by mode, operation and canonical query. */
import type { Database } from './database.ts';

export interface CachedData {
  data: Record<string, unknown>;
  storedAtMs: number;
}

/** The longest any entry may be used: `max_age`'s maximum, 7 days. */
const LONGEST_USE_MS = 7 * 24 * 60 * 60 * 1000;

export class ResponseCache {
  private readonly database: Database;

  constructor(database: Database) {
    this.database = database;
  }

  get(cacheKey: string): CachedData | undefined {
    const row = this.database.prepare('SELECT data, stored_at_ms FROM response_cache WHERE cache_key = ?').get(cacheKey) as { data: string; stored_at_ms: number } | undefined;
    return row ? { data: JSON.parse(row.data), storedAtMs: row.stored_at_ms } : undefined;
  }

  put(cacheKey: string, data: Record<string, unknown>, nowMs: number): void {
    this.database
      .prepare('INSERT INTO response_cache (cache_key, data, stored_at_ms) VALUES (?, ?, ?) ON CONFLICT (cache_key) DO UPDATE SET data = excluded.data, stored_at_ms = excluded.stored_at_ms')
      .run(cacheKey, JSON.stringify(data), nowMs);
  }

  /** Drops entries too old for any caller to use. */
  purgeExpired(nowMs: number): number {
    return Number(this.database.prepare('DELETE FROM response_cache WHERE stored_at_ms <= ?').run(nowMs - LONGEST_USE_MS).changes);
  }
}
