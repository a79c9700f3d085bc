/** Cached `data` of operations that cache (`x-cache`), keyed by mode, operation and canonical query; stored in the group commit of its turn (store/group-commit.ts). */
import { groupCommitOf, type Batch } from './group-commit.ts';
import type { SqlDatabase } from './sql.ts';

export interface CachedData {
  data: Record<string, unknown>;
  /** `data` serialised, as stored: a hit answers it as is rather than serialising `data` again. */
  json: string;
  storedAtMs: number;
}

/** The longest any entry may be used: `max_age`'s maximum, 7 days. */
const LONGEST_USE_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Entries kept parsed in memory too, so a hit costs no database read and no JSON parse: at most this
 * many, and at most this much JSON text (an entry holds its data parsed and as text, about three
 * times the text's size), the least recently used dropped first.
 */
const MEMORY_ENTRIES = 1000;
const MEMORY_JSON_CHARACTERS = 16 * 1024 * 1024;

interface Stored { cacheKey: string; json: string; storedAtMs: number }

export class ResponseCache {
  private readonly database: SqlDatabase;
  private readonly memory = new Map<string, CachedData>();
  private memoryCharacters = 0;
  /** An entry's writes of one turn: each replaces the one before, so only the last is written (the row ends as if all were). */
  private readonly writes: Batch<Stored, void> = {
    write: async (items) => {
      const { cacheKey, json, storedAtMs } = items.at(-1)!;
      await this.database.run(
        'INSERT INTO response_cache (cache_key, data, stored_at_ms) VALUES (?, ?, ?) ON CONFLICT (cache_key) DO UPDATE SET data = excluded.data, stored_at_ms = excluded.stored_at_ms',
        [cacheKey, json, storedAtMs],
      );
      return items.map(() => undefined);
    },
  };

  constructor(database: SqlDatabase) {
    this.database = database;
  }

  async get(cacheKey: string): Promise<CachedData | undefined> {
    const remembered = this.memory.get(cacheKey);
    if (remembered) return remembered;
    const row = await this.database.get<{ data: string; stored_at_ms: number }>('SELECT data, stored_at_ms FROM response_cache WHERE cache_key = ?', [cacheKey]);
    if (!row) return undefined;
    const entry = { data: JSON.parse(row.data), json: row.data, storedAtMs: row.stored_at_ms };
    this.remember(cacheKey, entry);
    return entry;
  }

  /** The JSON text the entries kept in memory hold, in characters. */
  get memoryJsonCharacters(): number {
    return this.memoryCharacters;
  }

  private remember(cacheKey: string, entry: CachedData): void {
    this.forget(cacheKey);
    this.memory.set(cacheKey, entry);
    this.memoryCharacters += entry.json.length;
    while (this.memory.size > MEMORY_ENTRIES || this.memoryCharacters > MEMORY_JSON_CHARACTERS) this.forget(this.memory.keys().next().value!);
  }

  private forget(cacheKey: string): void {
    const entry = this.memory.get(cacheKey);
    if (!entry) return;
    this.memory.delete(cacheKey);
    this.memoryCharacters -= entry.json.length;
  }

  /** Stores `data`, whose serialisation `json` is (`JSON.stringify(data)` unless the caller has it already). */
  async put(cacheKey: string, data: Record<string, unknown>, nowMs: number, json = JSON.stringify(data)): Promise<void> {
    this.remember(cacheKey, { data, json, storedAtMs: nowMs });
    await groupCommitOf(this.database).runBatched(`response_cache:${cacheKey}`, this.writes, { cacheKey, json, storedAtMs: nowMs });
  }

  /** Drops entries too old for any caller to use. */
  purgeExpired(nowMs: number): Promise<number> {
    for (const [cacheKey, entry] of this.memory) if (entry.storedAtMs <= nowMs - LONGEST_USE_MS) this.forget(cacheKey);
    return this.database.run('DELETE FROM response_cache WHERE stored_at_ms <= ?', [nowMs - LONGEST_USE_MS]);
  }
}
