/**
 * Credits: the balance on each key and the append-only ledger that explains it. A charge is one
 * conditional update (`balance >= amount`) and its ledger row in one transaction, so a balance
 * never goes negative and concurrent calls never spend the same credit twice. The charges, refunds
 * and top-ups of one event-loop turn share that transaction (store/group-commit.ts).
 */
import { groupCommitOf, type Batch, type GroupCommit } from './group-commit.ts';
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

/** One charge or credit of a key, as the group commit gathers them. */
interface Movement {
  keyId: string;
  amount: number;
  kind: 'charge' | 'refund' | 'top_up';
  reference: LedgerReference;
  now: Date;
}

/** Ledger rows written by one INSERT at most: a hot key's turn rarely has more charges. */
const ROWS_PER_INSERT = 50;

export class Ledger {
  private readonly database: SqlDatabase;
  private readonly observer: LedgerObserver | undefined;
  private readonly groupCommit: GroupCommit;
  /**
   * A key's charges of one turn: one conditional update for their sum when the balance covers it
   * (then each would have succeeded alone), and their ledger rows by one insert; otherwise one by
   * one, each succeeding only while the balance covers it, as alone.
   */
  private readonly charges: Batch<Movement, ChargeResult> = {
    write: async (movements) => {
      if (movements.length > 1) {
        const total = movements.reduce((sum, movement) => sum + movement.amount, 0);
        const row = await this.database.get<{ balance: number }>('UPDATE api_keys SET balance = balance - ? WHERE id = ? AND balance >= ? RETURNING balance', [total, movements[0]!.keyId, total]);
        if (row) return (await this.appendAll(movements, row.balance)).map((balance) => ({ ok: true, balance }));
      }
      const results: ChargeResult[] = [];
      for (const movement of movements) results.push(await this.chargeOne(movement));
      return results;
    },
  };
  /** A key's refunds and top-ups of one turn: one update for their sum, their ledger rows by one insert. */
  private readonly credits: Batch<Movement, number> = {
    write: async (movements) => {
      const total = movements.reduce((sum, movement) => sum + movement.amount, 0);
      const row = await this.database.get<{ balance: number }>('UPDATE api_keys SET balance = balance + ? WHERE id = ? RETURNING balance', [total, movements[0]!.keyId]);
      if (!row) throw new Error(`no API key ${movements[0]!.keyId}`);
      return this.appendAll(movements, row.balance);
    },
  };

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
    const result = await this.groupCommit.runBatched(`api_keys:${keyId}`, this.charges, { keyId, amount, kind: 'charge', reference, now });
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
    return this.groupCommit.runBatched(`api_keys:${keyId}`, this.credits, { keyId, amount, kind, reference, now });
  }

  /** A charge alone: drawn only if the balance covers it. */
  private async chargeOne(movement: Movement): Promise<ChargeResult> {
    const { keyId, amount } = movement;
    const row = await this.database.get<{ balance: number }>('UPDATE api_keys SET balance = balance - ? WHERE id = ? AND balance >= ? RETURNING balance', [amount, keyId, amount]);
    if (!row) return { ok: false, balance: await this.balance(keyId) };
    await this.appendAll([movement], row.balance);
    return { ok: true, balance: row.balance };
  }

  /**
   * The ledger rows of `movements`, made one after another and leaving the key at `finalBalance`;
   * answers the balance after each.
   */
  private async appendAll(movements: readonly Movement[], finalBalance: number): Promise<number[]> {
    const signed = movements.map((movement) => (movement.kind === 'charge' ? -movement.amount : movement.amount));
    const balances: number[] = [];
    for (let index = movements.length - 1, after = finalBalance; index >= 0; after -= signed[index]!, index--) balances[index] = after;
    for (let from = 0; from < movements.length; from += ROWS_PER_INSERT) {
      const chunk = movements.slice(from, from + ROWS_PER_INSERT);
      const values = chunk.flatMap(({ keyId, kind, reference, now }, at) => [
        keyId, kind, signed[from + at]!, balances[from + at]!, reference.requestId ?? null, reference.operationId ?? null, reference.jobId ?? null, reference.pageSeq ?? null, now.toISOString(),
      ]);
      await this.database.run(`INSERT INTO ledger (key_id, kind, amount, balance_after, request_id, operation_id, job_id, job_page_seq, created_at) VALUES ${chunk.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`, values);
    }
    return balances;
  }
}
