/** Opaque list cursors: which list, for which key, after which id. Anything else answers 422. */
import type { SqlDatabase } from './sql.ts';

export interface CursorPosition {
  list: string;
  keyId: string;
  after: string;
}

export function encodeCursor(position: CursorPosition): string {
  return Buffer.from(JSON.stringify([position.list, position.keyId, position.after])).toString('base64url');
}

/** The position a cursor names, or undefined when it was not issued for this list and key. */
export function decodeCursor(cursor: string, list: string, keyId: string): string | undefined {
  try {
    const [cursorList, cursorKey, after] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    return cursorList === list && cursorKey === keyId && typeof after === 'string' ? after : undefined;
  } catch {
    return undefined;
  }
}

/** One page, newest first, of a table of per-key JSON records (`id`, `key_id`, `record`); `after` is a decoded cursor. */
export async function newestFirstPage<T>(
  database: SqlDatabase,
  table: 'jobs' | 'monitors',
  keyId: string,
  limit: number,
  after: string | undefined,
): Promise<{ records: T[]; nextCursor: string | null }> {
  const rows = after === undefined
    ? await database.all<{ id: string; record: string }>(`SELECT id, record FROM ${table} WHERE key_id = ? ORDER BY id DESC LIMIT ?`, [keyId, limit + 1])
    : await database.all<{ id: string; record: string }>(`SELECT id, record FROM ${table} WHERE key_id = ? AND id < ? ORDER BY id DESC LIMIT ?`, [keyId, after, limit + 1]);
  const page = rows.slice(0, limit);
  const nextCursor = rows.length > limit ? encodeCursor({ list: table, keyId, after: page.at(-1)!.id }) : null;
  return { records: page.map((row) => JSON.parse(row.record) as T), nextCursor };
}
