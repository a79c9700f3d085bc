/**
 * Leases on the rows of work that instances share (jobs, monitors, webhook messages): which
 * instance works on a row (`lease_owner`) and until when (`lease_expires_at_ms`). An instance claims
 * rows that are free or whose lease expired, renews its leases while it works, and writes a row's
 * outcome only in a transaction that first renews the lease (so finds it still its own): an
 * instance that lost its lease cannot write. On PostgreSQL a claim locks its candidates with
 * `FOR UPDATE SKIP LOCKED`, so instances claiming at once take different rows without waiting on
 * each other; SQLite has one writer at a time, so the same `UPDATE … RETURNING` is atomic there.
 */
import type { SqlDatabase, SqlValue } from './sql.ts';

export type LeasedTable = 'jobs' | 'monitors' | 'webhook_messages';

export class Leases {
  private readonly database: SqlDatabase;
  private readonly table: LeasedTable;

  constructor(database: SqlDatabase, table: LeasedTable) {
    this.database = database;
    this.table = table;
  }

  /**
   * Claims for `owner`, until `nowMs + leaseMs`, up to `limit` rows meeting `condition` (SQL over
   * the table's columns, with `params`) whose lease is free or expired, first by `order`; their ids.
   */
  async claim(condition: string, params: readonly SqlValue[], order: string, limit: number, owner: string, nowMs: number, leaseMs: number): Promise<string[]> {
    const skipLocked = this.database.dialect === 'sqlite' ? '' : ' FOR UPDATE SKIP LOCKED';
    const rows = await this.database.all<{ id: string }>(
      `UPDATE ${this.table} SET lease_owner = ?, lease_expires_at_ms = ? WHERE id IN (
        SELECT id FROM ${this.table} WHERE (${condition}) AND (lease_owner IS NULL OR lease_expires_at_ms <= ?) ORDER BY ${order} LIMIT ?${skipLocked}
      ) RETURNING id`,
      [owner, nowMs + leaseMs, ...params, nowMs, limit],
    );
    return rows.map((row) => row.id);
  }

  /** Claims the row `id` for `owner` if it meets `condition` and its lease is free or expired. */
  async claimOne(id: string, condition: string, params: readonly SqlValue[], owner: string, nowMs: number, leaseMs: number): Promise<boolean> {
    const changed = await this.database.run(
      `UPDATE ${this.table} SET lease_owner = ?, lease_expires_at_ms = ? WHERE id = ? AND (${condition}) AND (lease_owner IS NULL OR lease_expires_at_ms <= ?)`,
      [owner, nowMs + leaseMs, id, ...params, nowMs],
    );
    return changed === 1;
  }

  /**
   * Extends `owner`'s lease on the row to `nowMs + leaseMs`; false when the row has another owner
   * or none (the lease was taken over or released). Inside a transaction it is the check that the
   * lease is still ours, and it holds the row until the transaction ends.
   */
  async renew(id: string, owner: string, nowMs: number, leaseMs: number): Promise<boolean> {
    return (await this.database.run(`UPDATE ${this.table} SET lease_expires_at_ms = ? WHERE id = ? AND lease_owner = ?`, [nowMs + leaseMs, id, owner])) === 1;
  }

  /** Gives the row up, if `owner` still holds it, for any instance to claim at once. */
  async release(id: string, owner: string): Promise<void> {
    await this.database.run(`UPDATE ${this.table} SET lease_owner = NULL, lease_expires_at_ms = NULL WHERE id = ? AND lease_owner = ?`, [id, owner]);
  }
}
