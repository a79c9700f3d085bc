/**
 * Credits: the balance on each key and the append-only ledger that explains it. A charge is one
 * conditional update (`balance >= amount`) and its ledger row in one transaction, so a balance
 * never goes negative and concurrent calls never spend the same credit twice.
 */
import { inTransaction, prepared, type Database } from './database.ts';

export interface LedgerReference {
  requestId?: string;
  operationId?: string;
  jobId?: string;
}

export type ChargeResult = { ok: true; balance: number } | { ok: false; balance: number };

export interface LedgerEntry {
  id: number;
  kind: 'top_up' | 'charge' | 'refund';
  amount: number;
  balanceAfter: number;
  requestId: string | null;
  operationId: string | null;
  jobId: string | null;
  createdAt: string;
}

/** Told of each charge and refund once written (the service's metrics). */
export interface LedgerObserver {
  creditsCharged(operationId: string | undefined, amount: number): void;
  creditsRefunded(operationId: string | undefined, amount: number): void;
}

export class Ledger {
  private readonly database: Database;
  private readonly observer: LedgerObserver | undefined;

  constructor(database: Database, observer?: LedgerObserver) {
    this.database = database;
    this.observer = observer;
  }

  balance(keyId: string): number {
    const row = prepared(this.database, 'SELECT balance FROM api_keys WHERE id = ?').get(keyId) as { balance: number } | undefined;
    if (!row) throw new Error(`no API key ${keyId}`);
    return row.balance;
  }

  /** Draws `amount` credits if the balance covers them; a zero amount draws nothing and writes nothing. */
  charge(keyId: string, amount: number, reference: LedgerReference, now: Date = new Date()): ChargeResult {
    if (amount === 0) return { ok: true, balance: this.balance(keyId) };
    const result = inTransaction(this.database, () => {
      const row = prepared(this.database, 'UPDATE api_keys SET balance = balance - ? WHERE id = ? AND balance >= ? RETURNING balance')
        .get(amount, keyId, amount) as { balance: number } | undefined;
      if (!row) return { ok: false, balance: this.balance(keyId) } as const;
      this.append(keyId, 'charge', -amount, row.balance, reference, now);
      return { ok: true, balance: row.balance } as const;
    });
    if (result.ok) this.observer?.creditsCharged(reference.operationId, amount);
    return result;
  }

  /**
   * Gives back a charge whose call failed (no error charges credits), or what a job drew when it
   * ended with nothing to show. A job is refunded at most once: a second refund naming the same
   * `jobId` breaks the ledger's unique index and throws, changing nothing.
   */
  refund(keyId: string, amount: number, reference: LedgerReference, now: Date = new Date()): number {
    if (amount === 0) return this.balance(keyId);
    const balance = this.credit(keyId, amount, 'refund', reference, now);
    this.observer?.creditsRefunded(reference.operationId, amount);
    return balance;
  }

  /** Adds credits to a key (a top-up). */
  topUp(keyId: string, amount: number, now: Date = new Date()): number {
    return this.credit(keyId, amount, 'top_up', {}, now);
  }

  entries(keyId: string): LedgerEntry[] {
    type Row = { id: number; kind: LedgerEntry['kind']; amount: number; balance_after: number; request_id: string | null; operation_id: string | null; job_id: string | null; created_at: string };
    return (prepared(this.database, 'SELECT * FROM ledger WHERE key_id = ? ORDER BY id').all(keyId) as unknown as Row[]).map((row) => ({
      id: row.id,
      kind: row.kind,
      amount: row.amount,
      balanceAfter: row.balance_after,
      requestId: row.request_id,
      operationId: row.operation_id,
      jobId: row.job_id,
      createdAt: row.created_at,
    }));
  }

  private credit(keyId: string, amount: number, kind: 'refund' | 'top_up', reference: LedgerReference, now: Date): number {
    return inTransaction(this.database, () => {
      const row = prepared(this.database, 'UPDATE api_keys SET balance = balance + ? WHERE id = ? RETURNING balance').get(amount, keyId) as { balance: number } | undefined;
      if (!row) throw new Error(`no API key ${keyId}`);
      this.append(keyId, kind, amount, row.balance, reference, now);
      return row.balance;
    });
  }

  private append(keyId: string, kind: string, amount: number, balanceAfter: number, reference: LedgerReference, now: Date): void {
    prepared(this.database, 'INSERT INTO ledger (key_id, kind, amount, balance_after, request_id, operation_id, job_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
      .run(keyId, kind, amount, balanceAfter, reference.requestId ?? null, reference.operationId ?? null, reference.jobId ?? null, now.toISOString());
  }
}
