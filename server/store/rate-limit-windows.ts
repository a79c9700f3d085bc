/**
 * Rate-limit windows, one row per API key, in the database every instance shares: counting a
 * request is one atomic upsert that answers the window's new count, so N instances together let
 * a key through exactly as often as one would.
 */
import { groupCommitOf, type GroupCommit } from './group-commit.ts';
import type { SqlDatabase } from './sql.ts';

export class RateLimitWindows {
  private readonly database: SqlDatabase;
  private readonly groupCommit: GroupCommit;

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
  async count(keyId: string, windowStartsAtMs: number): Promise<number> {
    const row = await this.groupCommit.run(`rate_limit_windows:${keyId}`, () => this.database.get<{ count: number }>(
      `INSERT INTO rate_limit_windows (key_id, window_starts_at_ms, count) VALUES (?, ?, 1)
       ON CONFLICT (key_id) DO UPDATE SET
         count = CASE WHEN excluded.window_starts_at_ms > rate_limit_windows.window_starts_at_ms THEN 1 ELSE rate_limit_windows.count + 1 END,
         window_starts_at_ms = CASE WHEN excluded.window_starts_at_ms > rate_limit_windows.window_starts_at_ms THEN excluded.window_starts_at_ms ELSE rate_limit_windows.window_starts_at_ms END
       RETURNING count`,
      [keyId, windowStartsAtMs],
    ));
    return row!.count;
  }
}
