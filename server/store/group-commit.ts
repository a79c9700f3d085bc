/**
 * Group commit: the small writes every call makes (its charge, its rate-limit count) are gathered
 * for one event-loop turn and written in one transaction on the next, so a busy instance pays one
 * BEGIN and one COMMIT per turn rather than per call. Each write runs whole inside that transaction,
 * one after another (a charge's conditional update sees every charge before it), and each caller's
 * promise settles only once the transaction has committed. A write that throws (a unique index)
 * rolls the group back; each of its writes is then made again in its own transaction, one after
 * another in the group's order, so only that one fails. A write made inside a transaction already open joins it, as before.
 */
import type { SqlDatabase } from './sql.ts';

interface Pending {
  lockKey: string;
  write: () => Promise<unknown>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

export class GroupCommit {
  private readonly database: SqlDatabase;
  private gathering: Pending[] | undefined;

  constructor(database: SqlDatabase) {
    this.database = database;
  }

  /**
   * Runs `write` (statements only, no other effect: it may run twice) in the next group transaction
   * and answers its result once that has committed. `lockKey` names the row it locks (`table:id`): a
   * group runs its writes in that order (arrival order among equals), so the groups of several
   * instances lock rows in one order and never deadlock one another.
   */
  run<T>(lockKey: string, write: () => Promise<T>): Promise<T> {
    if (this.database.inTransaction?.() !== false) return this.database.transaction(write);
    return new Promise<T>((resolve, reject) => {
      if (!this.gathering) {
        const group: Pending[] = (this.gathering = []);
        setImmediate(() => {
          this.gathering = undefined;
          void this.commit(group);
        });
      }
      this.gathering.push({ lockKey, write, resolve: resolve as (value: unknown) => void, reject });
    });
  }

  private async commit(group: Pending[]): Promise<void> {
    group.sort((a, b) => (a.lockKey < b.lockKey ? -1 : a.lockKey > b.lockKey ? 1 : 0));
    try {
      const results = await this.database.transaction(async () => {
        const written: unknown[] = [];
        for (const pending of group) written.push(await pending.write());
        return written;
      });
      group.forEach((pending, index) => pending.resolve(results[index]));
    } catch (error) {
      if (group.length === 1) return group[0]!.reject(error);
      for (const pending of group) await this.database.transaction(pending.write).then(pending.resolve, pending.reject);
    }
  }
}

const groups = new WeakMap<SqlDatabase, GroupCommit>();

/** The one group commit of `database`, shared by every store over it. */
export function groupCommitOf(database: SqlDatabase): GroupCommit {
  let group = groups.get(database);
  if (!group) groups.set(database, (group = new GroupCommit(database)));
  return group;
}
