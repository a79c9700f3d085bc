/** Monitors as returned by the API, per API key, newest first. */
import type { components } from '../../generated/types.ts';
import { newestFirstPage } from './cursor.ts';
import { prepared, type Database } from './database.ts';

export type Monitor = components['schemas']['Monitor'];
export type MonitorCheck = components['schemas']['MonitorCheck'];

/** When the scheduler should next look at a monitor: never while paused. */
function dueAt(monitor: Monitor): number | null {
  return monitor.status === 'active' && monitor.next_check_at ? Date.parse(monitor.next_check_at) : null;
}

export class MonitorStore {
  private readonly database: Database;

  constructor(database: Database) {
    this.database = database;
  }

  insert(keyId: string, monitor: Monitor): void {
    prepared(this.database, 'INSERT INTO monitors (id, key_id, record, next_check_at_ms) VALUES (?, ?, ?, ?)').run(monitor.id, keyId, JSON.stringify(monitor), dueAt(monitor));
  }

  save(monitor: Monitor): void {
    prepared(this.database, 'UPDATE monitors SET record = ?, next_check_at_ms = ? WHERE id = ?').run(JSON.stringify(monitor), dueAt(monitor), monitor.id);
  }

  /** Active monitors whose next check is due, with their owners. */
  due(nowMs: number): { keyId: string; monitor: Monitor }[] {
    const rows = prepared(this.database, 'SELECT key_id, record FROM monitors WHERE next_check_at_ms IS NOT NULL AND next_check_at_ms <= ? ORDER BY next_check_at_ms').all(nowMs) as { key_id: string; record: string }[];
    return rows.map((row) => ({ keyId: row.key_id, monitor: JSON.parse(row.record) as Monitor }));
  }

  /** Stores a check, with the content later checks compare against (null for a failed check). */
  addCheck(monitorId: string, check: MonitorCheck, checkedAtMs: number, content: string | null): void {
    prepared(this.database, 'INSERT INTO monitor_checks (id, monitor_id, checked_at_ms, check_record, content) VALUES (?, ?, ?, ?, ?)').run(check.id, monitorId, checkedAtMs, JSON.stringify(check), content);
  }

  /** The content of the last successful check, if any. */
  lastContent(monitorId: string): string | undefined {
    const row = prepared(this.database, 'SELECT content FROM monitor_checks WHERE monitor_id = ? AND content IS NOT NULL ORDER BY checked_at_ms DESC, rowid DESC LIMIT 1').get(monitorId) as { content: string } | undefined;
    return row?.content;
  }

  /** Drops checks older than `beforeMs`, always keeping the most recent one. */
  pruneChecks(monitorId: string, beforeMs: number): number {
    return Number(prepared(this.database, `DELETE FROM monitor_checks WHERE monitor_id = ? AND checked_at_ms < ? AND rowid <> (SELECT rowid FROM monitor_checks WHERE monitor_id = ? ORDER BY checked_at_ms DESC, rowid DESC LIMIT 1)`).run(monitorId, beforeMs, monitorId).changes);
  }

  countChecks(monitorId: string): number {
    return (prepared(this.database, 'SELECT COUNT(*) AS count FROM monitor_checks WHERE monitor_id = ?').get(monitorId) as { count: number }).count;
  }

  /** The monitor if it belongs to `keyId`. */
  get(keyId: string, monitorId: string): Monitor | undefined {
    const row = prepared(this.database, 'SELECT record FROM monitors WHERE id = ? AND key_id = ?').get(monitorId, keyId) as { record: string } | undefined;
    return row ? (JSON.parse(row.record) as Monitor) : undefined;
  }

  /** One page of a key's monitors, newest first. `after` is the decoded cursor. */
  list(keyId: string, limit: number, after: string | undefined): { monitors: Monitor[]; nextCursor: string | null } {
    const { records, nextCursor } = newestFirstPage<Monitor>(this.database, 'monitors', keyId, limit, after);
    return { monitors: records, nextCursor };
  }

  remove(monitorId: string): void {
    prepared(this.database, 'DELETE FROM monitors WHERE id = ?').run(monitorId);
  }
}
