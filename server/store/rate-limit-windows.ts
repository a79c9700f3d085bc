/**
 * Rate-limit windows, one row per API key, in the database every instance shares: counting a
 * request is one atomic upsert that answers the window's new count, so N instances together let
 * a key through exactly as often as one would.
 */
import { groupCommitOf, type Batch, type GroupCommit } from './group-commit.ts';
import type { SqlDatabase } from './sql.ts';

interface Counted { keyId: string; windowStartsAtMs: number }

export class RateLimitWindows {
  private readonly database: SqlDatabase;
  private readonly groupCommit: GroupCommit;
  /** A key's counts of one turn, made by one upsert per window they name (a hot key's calls, counted together). */
  private readonly counts: Batch<Counted, number> = {
    write: async (items) => {
      const counts: number[] = [];
      for (let from = 0; from < items.length;) {
        const { keyId, windowStartsAtMs } = items[from]!;
        let to = from + 1;
        while (to < items.length && items[to]!.windowStartsAtMs === windowStartsAtMs) to++;
        const total = await this.add(keyId, windowStartsAtMs, to - from);
        for (let index = from; index < to; index++) counts.push(total - (to - 1 - index));
        from = to;
      }
      return counts;
    },
  };

  constructor(database: SqlDatabase) {
    this.database = database;
    this.groupCommit = groupCommitOf(database);
  }

  /**
   * Counts one request of `keyId` in the window that starts at `windowStartsAtMs` and answers how
   * many that window has counted, this one included. A request stamped with an older window (a
   * clock a little behind) counts in the newer one rather than resetting it. Written with the other
   * counts and charges of this event-loop turn in one transaction (store/group-commit.ts).
   */
  count(keyId: string, windowStartsAtMs: number): Promise<number> {
    return this.groupCommit.runBatched(`rate_limit_windows:${keyId}`, this.counts, { keyId, windowStartsAtMs });
  }

  /** Counts `requests` at once; the window's count after them (as many counts of one made one after another). */
  private async add(keyId: string, windowStartsAtMs: number, requests: number): Promise<number> {
    const row = await this.database.get<{ count: number }>(
      `INSERT INTO rate_limit_windows (key_id, window_starts_at_ms, count) VALUES (?, ?, ?)
       ON CONFLICT (key_id) DO UPDATE SET
         count = CASE WHEN excluded.window_starts_at_ms > rate_limit_windows.window_starts_at_ms THEN excluded.count ELSE rate_limit_windows.count + excluded.count END,
         window_starts_at_ms = CASE WHEN excluded.window_starts_at_ms > rate_limit_windows.window_starts_at_ms THEN excluded.window_starts_at_ms ELSE rate_limit_windows.window_starts_at_ms END
       RETURNING count`,
      [keyId, windowStartsAtMs, requests],
    );
    return row!.count;
  }
}
