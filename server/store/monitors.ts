/** Monitors as returned by the API, per API key, newest first. */
import type { components } from '../../generated/types.ts';
import { newestFirstPage } from './cursor.ts';
import { prepared, type Database } from './database.ts';

export type Monitor = components['schemas']['Monitor'];

export class MonitorStore {
  private readonly database: Database;

  constructor(database: Database) {
    this.database = database;
  }

  insert(keyId: string, monitor: Monitor): void {
    prepared(this.database, 'INSERT INTO monitors (id, key_id, record) VALUES (?, ?, ?)').run(monitor.id, keyId, JSON.stringify(monitor));
  }

  save(monitor: Monitor): void {
    prepared(this.database, 'UPDATE monitors SET record = ? WHERE id = ?').run(JSON.stringify(monitor), monitor.id);
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
