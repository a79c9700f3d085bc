/** Monitors as returned by the API, per API key, newest first. */
import type { components } from '../../generated/types.ts';
import { newestFirstPage } from './cursor.ts';
import { Leases } from './leases.ts';
import type { SqlDatabase } from './sql.ts';

export type Monitor = components['schemas']['Monitor'];
export type MonitorCheck = components['schemas']['MonitorCheck'];

/** When the scheduler should next look at a monitor: never while paused. */
function dueAt(monitor: Monitor): number | null {
  return monitor.status === 'active' && monitor.next_check_at ? Date.parse(monitor.next_check_at) : null;
}

export class MonitorStore {
  private readonly database: SqlDatabase;
  /** Which instance checks each due monitor (the scheduler's leases). */
  readonly leases: Leases;

  constructor(database: SqlDatabase) {
    this.database = database;
    this.leases = new Leases(database, 'monitors');
  }

  async insert(keyId: string, monitor: Monitor): Promise<void> {
    await this.database.run('INSERT INTO monitors (id, key_id, record, next_check_at_ms) VALUES (?, ?, ?, ?)', [monitor.id, keyId, JSON.stringify(monitor), dueAt(monitor)]);
  }

  async save(monitor: Monitor): Promise<void> {
    await this.database.run('UPDATE monitors SET record = ?, next_check_at_ms = ? WHERE id = ?', [JSON.stringify(monitor), dueAt(monitor), monitor.id]);
  }

  /** Claims for `owner` up to `limit` active monitors whose next check is due and that no instance holds (or whose lease expired), with their owners. */
  async claimDue(owner: string, nowMs: number, leaseMs: number, limit: number): Promise<{ keyId: string; monitor: Monitor }[]> {
    const ids = await this.leases.claim('next_check_at_ms IS NOT NULL AND next_check_at_ms <= ?', [nowMs], 'next_check_at_ms', limit, owner, nowMs, leaseMs);
    const claimed: { keyId: string; monitor: Monitor }[] = [];
    for (const id of ids) {
      const row = await this.database.get<{ key_id: string; record: string }>('SELECT key_id, record FROM monitors WHERE id = ?', [id]);
      if (row) claimed.push({ keyId: row.key_id, monitor: JSON.parse(row.record) as Monitor });
    }
    return claimed;
  }

  /** Stores a check, with the content later checks compare against (null for a failed check). */
  async addCheck(monitorId: string, check: MonitorCheck, checkedAtMs: number, content: string | null): Promise<void> {
    await this.database.run('INSERT INTO monitor_checks (id, monitor_id, checked_at_ms, check_record, content) VALUES (?, ?, ?, ?, ?)', [check.id, monitorId, checkedAtMs, JSON.stringify(check), content]);
  }

  /** The content of the last successful check, if any. */
  async lastContent(monitorId: string): Promise<string | undefined> {
    const row = await this.database.get<{ content: string }>('SELECT content FROM monitor_checks WHERE monitor_id = ? AND content IS NOT NULL ORDER BY checked_at_ms DESC, rowid DESC LIMIT 1', [monitorId]);
    return row?.content;
  }

  /** Drops checks older than `beforeMs`, always keeping the most recent one. */
  pruneChecks(monitorId: string, beforeMs: number): Promise<number> {
    return this.database.run(`DELETE FROM monitor_checks WHERE monitor_id = ? AND checked_at_ms < ? AND rowid <> (SELECT rowid FROM monitor_checks WHERE monitor_id = ? ORDER BY checked_at_ms DESC, rowid DESC LIMIT 1)`, [monitorId, beforeMs, monitorId]);
  }

  async countChecks(monitorId: string): Promise<number> {
    return (await this.database.get<{ count: number }>('SELECT COUNT(*) AS count FROM monitor_checks WHERE monitor_id = ?', [monitorId]))!.count;
  }

  /** The monitor if it belongs to `keyId`. */
  async get(keyId: string, monitorId: string): Promise<Monitor | undefined> {
    const row = await this.database.get<{ record: string }>('SELECT record FROM monitors WHERE id = ? AND key_id = ?', [monitorId, keyId]);
    return row ? (JSON.parse(row.record) as Monitor) : undefined;
  }

  /** One page of a key's monitors, newest first. `after` is the decoded cursor. */
  async list(keyId: string, limit: number, after: string | undefined): Promise<{ monitors: Monitor[]; nextCursor: string | null }> {
    const { records, nextCursor } = await newestFirstPage<Monitor>(this.database, 'monitors', keyId, limit, after);
    return { monitors: records, nextCursor };
  }

  async remove(monitorId: string): Promise<void> {
    await this.database.run('DELETE FROM monitors WHERE id = ?', [monitorId]);
  }
}
