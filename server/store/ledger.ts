/**
 * Credits: the balance on each key and the append-only ledger that explains it. A charge is one
 * conditional update (`balance >= amount`) and its ledger row in one transaction, so a balance
 * never goes negative and concurrent calls never spend the same credit twice. The charges, refunds
 * and top-ups of one event-loop turn share that transaction (store/group-commit.ts).
 */
import { groupCommitOf, type GroupCommit } from './group-commit.ts';
import type { SqlDatabase } from './sql.ts';

export interface LedgerReference {
  requestId?: string;
  operationId?: string;
  jobId?: string;
  /** The page of job `jobId` a per-page charge pays for: the ledger holds one charge per job and page. */
  pageSeq?: number;
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
  private readonly database: SqlDatabase;
  private readonly observer: LedgerObserver | undefined;
  private readonly groupCommit: GroupCommit;

  constructor(database: SqlDatabase, observer?: LedgerObserver) {
    this.database = database;
    this.observer = observer;
    this.groupCommit = groupCommitOf(database);
  }

  async balance(keyId: string): Promise<number> {
    const row = await this.database.get<{ balance: number }>('SELECT balance FROM api_keys WHERE id = ?', [keyId]);
    if (!row) throw new Error(`no API key ${keyId}`);
    return row.balance;
  }

  /**
   * Draws `amount` credits if the balance covers them; a zero amount draws nothing and writes nothing.
   * Written with the other charges of this event-loop turn in one transaction (store/group-commit.ts),
   * answered once it has committed.
   */
  async charge(keyId: string, amount: number, reference: LedgerReference, now: Date = new Date()): Promise<ChargeResult> {
    if (amount === 0) return { ok: true, balance: await this.balance(keyId) };
    const result = await this.groupCommit.run(`api_keys:${keyId}`, async () => {
      const row = await this.database.get<{ balance: number }>('UPDATE api_keys SET balance = balance - ? WHERE id = ? AND balance >= ? RETURNING balance', [amount, keyId, amount]);
      if (!row) return { ok: false, balance: await this.balance(keyId) } as const;
      await this.append(keyId, 'charge', -amount, row.balance, reference, now);
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
  async refund(keyId: string, amount: number, reference: LedgerReference, now: Date = new Date()): Promise<number> {
    if (amount === 0) return this.balance(keyId);
    const balance = await this.credit(keyId, amount, 'refund', reference, now);
    this.observer?.creditsRefunded(reference.operationId, amount);
    return balance;
  }

  /** Adds credits to a key (a top-up). */
  topUp(keyId: string, amount: number, now: Date = new Date()): Promise<number> {
    return this.credit(keyId, amount, 'top_up', {}, now);
  }

  async entries(keyId: string): Promise<LedgerEntry[]> {
    type Row = { id: number; kind: LedgerEntry['kind']; amount: number; balance_after: number; request_id: string | null; operation_id: string | null; job_id: string | null; created_at: string };
    return (await this.database.all<Row>('SELECT * FROM ledger WHERE key_id = ? ORDER BY id', [keyId])).map((row) => ({
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

  /** Written with the other writes of this event-loop turn, like a charge. */
  private credit(keyId: string, amount: number, kind: 'refund' | 'top_up', reference: LedgerReference, now: Date): Promise<number> {
    return this.groupCommit.run(`api_keys:${keyId}`, async () => {
      const row = await this.database.get<{ balance: number }>('UPDATE api_keys SET balance = balance + ? WHERE id = ? RETURNING balance', [amount, keyId]);
      if (!row) throw new Error(`no API key ${keyId}`);
      await this.append(keyId, kind, amount, row.balance, reference, now);
      return row.balance;
    });
  }

  private async append(keyId: string, kind: string, amount: number, balanceAfter: number, reference: LedgerReference, now: Date): Promise<void> {
    await this.database.run('INSERT INTO ledger (key_id, kind, amount, balance_after, request_id, operation_id, job_id, job_page_seq, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)', [
      keyId, kind, amount, balanceAfter, reference.requestId ?? null, reference.operationId ?? null, reference.jobId ?? null, reference.pageSeq ?? null, now.toISOString(),
    ]);
  }
}
