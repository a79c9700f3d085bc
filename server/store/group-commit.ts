/**
 * Group commit: the small writes every call makes (its charge, its rate-limit count) are gathered
 * for one event-loop turn and written in one transaction on the next, so a busy instance pays one
 * BEGIN and one COMMIT per turn rather than per call. Each write runs whole inside that transaction,
 * one after another (a charge's conditional update sees every charge before it), and each caller's
 * promise settles only once the transaction has committed. Writes of one kind on one row that
 * follow one another in the group (a hot key's charges, its rate-limit counts) may be made by one
 * statement for all (`runBatched`), answering each what it would have answered alone. A write that
 * throws (a unique index) rolls the group back; each of its writes is then made again in its own
 * transaction, one after another in the group's order, so only that one fails. A write made inside
 * a transaction already open joins it, as before.
 */
import type { SqlDatabase } from './sql.ts';

/**
 * Writes of one kind that can be made together: `write` gets the items of consecutive writes on the
 * same row, in order, and answers one result per item, each what writing the items one after another
 * would have answered it (statements only, no other effect: it may run twice).
 */
export interface Batch<Item, Result> {
  write(items: readonly Item[]): Promise<Result[]>;
}

interface Pending {
  lockKey: string;
  batch: Batch<unknown, unknown>;
  item: unknown;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/** A lone write as a batch of its own: never merged with another. */
function single<T>(write: () => Promise<T>): Batch<unknown, T> {
  return { write: async () => [await write()] };
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
    return this.runBatched(lockKey, single(write), undefined);
  }

  /** As `run`, for `item` of `batch`: written by one `batch.write` with the items of the same batch and row next to it in the group. */
  runBatched<Item, Result>(lockKey: string, batch: Batch<Item, Result>, item: Item): Promise<Result> {
    if (this.database.inTransaction?.() !== false) return this.database.transaction(async () => (await batch.write([item]))[0]!);
    return new Promise<Result>((resolve, reject) => {
      if (!this.gathering) {
        const group: Pending[] = (this.gathering = []);
        setImmediate(() => {
          this.gathering = undefined;
          void this.commit(group);
        });
      }
      this.gathering.push({ lockKey, batch: batch as Batch<unknown, unknown>, item, resolve: resolve as (value: unknown) => void, reject });
    });
  }

  private async commit(group: Pending[]): Promise<void> {
    group.sort((a, b) => (a.lockKey < b.lockKey ? -1 : a.lockKey > b.lockKey ? 1 : 0));
    const runs = runsOf(group);
    try {
      const results = await this.database.transaction(async () => {
        const written: unknown[][] = [];
        for (const run of runs) written.push(await run[0]!.batch.write(run.map((pending) => pending.item)));
        return written;
      });
      runs.forEach((run, index) => run.forEach((pending, at) => pending.resolve(results[index]![at])));
    } catch (error) {
      if (group.length === 1) return group[0]!.reject(error);
      for (const pending of group) {
        await this.database.transaction(() => pending.batch.write([pending.item])).then((results) => pending.resolve(results[0]), pending.reject);
      }
    }
  }
}

/** The group cut where the row or the batch changes: each run is written by one call of its batch. */
function runsOf(group: readonly Pending[]): Pending[][] {
  const runs: Pending[][] = [];
  for (const pending of group) {
    const last = runs.at(-1)?.[0];
    if (last && last.lockKey === pending.lockKey && last.batch === pending.batch) runs.at(-1)!.push(pending);
    else runs.push([pending]);
  }
  return runs;
}

const groups = new WeakMap<SqlDatabase, GroupCommit>();

/** The one group commit of `database`, shared by every store over it. */
export function groupCommitOf(database: SqlDatabase): GroupCommit {
  let group = groups.get(database);
  if (!group) groups.set(database, (group = new GroupCommit(database)));
  return group;
}
