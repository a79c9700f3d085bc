/**
 * Idempotency records (Stripe-like), per API key and Idempotency-Key, kept 24 hours: the first
 * request claims the key (`in_flight`), and its 200 answer is stored (`done`) for replays.
 */
import type { SqlDatabase } from './sql.ts';

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * How long a claim may stay in flight before it is taken for abandoned (its instance died
 * mid-request) and the key may be claimed again: far beyond any request's own bound (every
 * upstream call has a timeout of at most tens of seconds).
 */
export const IN_FLIGHT_RECLAIM_MS = 5 * 60 * 1000;

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
  private readonly database: SqlDatabase;

  constructor(database: SqlDatabase) {
    this.database = database;
  }

  /**
   * Claims `idempotencyKey` for a request, or tells what already holds it: one INSERT … ON CONFLICT
   * DO NOTHING, so of requests racing on any number of instances exactly one claims. Expired
   * records, and claims in flight for longer than IN_FLIGHT_RECLAIM_MS, are dropped first.
   */
  async claim(keyId: string, idempotencyKey: string, fingerprint: string, nowMs: number): Promise<Claim> {
    await this.database.run(
      `DELETE FROM idempotency_records WHERE key_id = ? AND idempotency_key = ? AND (created_at_ms <= ? OR (state = 'in_flight' AND created_at_ms <= ?))`,
      [keyId, idempotencyKey, nowMs - IDEMPOTENCY_TTL_MS, nowMs - IN_FLIGHT_RECLAIM_MS],
    );
    const inserted = await this.database.run(`INSERT INTO idempotency_records (key_id, idempotency_key, fingerprint, state, created_at_ms) VALUES (?, ?, ?, 'in_flight', ?) ON CONFLICT DO NOTHING`, [keyId, idempotencyKey, fingerprint, nowMs]);
    if (inserted === 1) return { kind: 'claimed' };
    const row = (await this.database.get<RecordRow>('SELECT * FROM idempotency_records WHERE key_id = ? AND idempotency_key = ?', [keyId, idempotencyKey]))!;
    const sameRequest = row.fingerprint === fingerprint;
    if (row.state === 'in_flight') return { kind: 'in_flight', sameRequest };
    return { kind: 'done', sameRequest, answer: { status: row.status!, headers: JSON.parse(row.headers!), body: row.body! } };
  }

  /** Stores the answer of the request that claimed the key. */
  async complete(keyId: string, idempotencyKey: string, answer: StoredAnswer): Promise<void> {
    await this.database.run(`UPDATE idempotency_records SET state = 'done', status = ?, headers = ?, body = ? WHERE key_id = ? AND idempotency_key = ?`, [answer.status, JSON.stringify(answer.headers), answer.body, keyId, idempotencyKey]);
  }

  /** Frees the key after an error, so the caller may retry with it (errors are not stored). */
  async release(keyId: string, idempotencyKey: string): Promise<void> {
    await this.database.run(`DELETE FROM idempotency_records WHERE key_id = ? AND idempotency_key = ? AND state = 'in_flight'`, [keyId, idempotencyKey]);
  }

  /** Drops every record older than 24 hours. */
  purgeExpired(nowMs: number): Promise<number> {
    return this.database.run('DELETE FROM idempotency_records WHERE created_at_ms <= ?', [nowMs - IDEMPOTENCY_TTL_MS]);
  }
}
