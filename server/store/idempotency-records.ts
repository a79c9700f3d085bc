/**
 * Idempotency records (Stripe-like), per API key and Idempotency-Key, kept 24 hours: the first
 * request claims the key (`in_flight`), and its 200 answer is stored (`done`) for replays.
 */
import { prepared, type Database } from './database.ts';

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

export interface StoredAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export type Claim =
  | { kind: 'claimed' }
  | { kind: 'in_flight'; sameRequest: boolean }
  | { kind: 'done'; sameRequest: boolean; answer: StoredAnswer };

interface RecordRow {
  fingerprint: string;
  state: 'in_flight' | 'done';
  status: number | null;
  headers: string | null;
  body: string | null;
  created_at_ms: number;
}

export class IdempotencyRecords {
  private readonly database: Database;

  constructor(database: Database) {
    this.database = database;
  }

  /** Claims `idempotencyKey` for a request, or tells what already holds it. Expired records are dropped first. */
  claim(keyId: string, idempotencyKey: string, fingerprint: string, nowMs: number): Claim {
    prepared(this.database, 'DELETE FROM idempotency_records WHERE key_id = ? AND idempotency_key = ? AND created_at_ms <= ?').run(keyId, idempotencyKey, nowMs - IDEMPOTENCY_TTL_MS);
    const inserted = prepared(this.database, `INSERT INTO idempotency_records (key_id, idempotency_key, fingerprint, state, created_at_ms) VALUES (?, ?, ?, 'in_flight', ?) ON CONFLICT DO NOTHING`)
      .run(keyId, idempotencyKey, fingerprint, nowMs);
    if (inserted.changes === 1) return { kind: 'claimed' };
    const row = prepared(this.database, 'SELECT * FROM idempotency_records WHERE key_id = ? AND idempotency_key = ?').get(keyId, idempotencyKey) as unknown as RecordRow;
    const sameRequest = row.fingerprint === fingerprint;
    if (row.state === 'in_flight') return { kind: 'in_flight', sameRequest };
    return { kind: 'done', sameRequest, answer: { status: row.status!, headers: JSON.parse(row.headers!), body: row.body! } };
  }

  /** Stores the answer of the request that claimed the key. */
  complete(keyId: string, idempotencyKey: string, answer: StoredAnswer): void {
    prepared(this.database, `UPDATE idempotency_records SET state = 'done', status = ?, headers = ?, body = ? WHERE key_id = ? AND idempotency_key = ?`)
      .run(answer.status, JSON.stringify(answer.headers), answer.body, keyId, idempotencyKey);
  }

  /** Frees the key after an error, so the caller may retry with it (errors are not stored). */
  release(keyId: string, idempotencyKey: string): void {
    prepared(this.database, `DELETE FROM idempotency_records WHERE key_id = ? AND idempotency_key = ? AND state = 'in_flight'`).run(keyId, idempotencyKey);
  }

  /** Drops every record older than 24 hours. */
  purgeExpired(nowMs: number): number {
    return Number(prepared(this.database, 'DELETE FROM idempotency_records WHERE created_at_ms <= ?').run(nowMs - IDEMPOTENCY_TTL_MS).changes);
  }
}
