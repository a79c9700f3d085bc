/** Monitors as returned by the API, per API key, newest first. */
import type { components } from '../../generated/types.ts';
import { encodeCursor } from './cursor.ts';
import type { Database } from './database.ts';

export type Monitor = components['schemas']['Monitor'];

export class MonitorStore {
  private readonly database: Database;

  constructor(database: Database) {
    this.database = database;
  }

  insert(keyId: string, monitor: Monitor): void {
    this.database.prepare('INSERT INTO monitors (id, key_id, record) VALUES (?, ?, ?)').run(monitor.id, keyId, JSON.stringify(monitor));
  }

  save(monitor: Monitor): void {
    this.database.prepare('UPDATE monitors SET record = ? WHERE id = ?').run(JSON.stringify(monitor), monitor.id);
  }

  /** The monitor if it belongs to `keyId`. */
  get(keyId: string, monitorId: string): Monitor | undefined {
    const row = this.database.prepare('SELECT record FROM monitors WHERE id = ? AND key_id = ?').get(monitorId, keyId) as { record: string } | undefined;
    return row ? (JSON.parse(row.record) as Monitor) : undefined;
  }

  list(keyId: string, limit: number, after: string | undefined): { monitors: Monitor[]; nextCursor: string | null } {
    const rows = this.database
      .prepare('SELECT id, record FROM monitors WHERE key_id = ? AND (? IS NULL OR id < ?) ORDER BY id DESC LIMIT ?')
      .all(keyId, after ?? null, after ?? null, limit + 1) as { id: string; record: string }[];
    const page = rows.slice(0, limit);
    const nextCursor = rows.length > limit ? encodeCursor({ list: 'monitors', keyId, after: page.at(-1)!.id }) : null;
    return { monitors: page.map((row) => JSON.parse(row.record) as Monitor), nextCursor };
  }

  remove(monitorId: string): void {
    this.database.prepare('DELETE FROM monitors WHERE id = ?').run(monitorId);
  }
}
