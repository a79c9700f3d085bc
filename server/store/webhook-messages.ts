/** Webhook messages waiting for delivery, delivered, or given up, one row per message (its id is `webhook-id`). */
import { ulid } from '../../lib/request-id.ts';
import { Leases } from './leases.ts';
import type { SqlDatabase } from './sql.ts';

export interface WebhookMessage {
  id: string;
  keyId: string;
  /** The job or monitor the event is about: its events are delivered in order, one at a time. */
  subject: string;
  url: string;
  eventType: string;
  payload: string;
  state: 'pending' | 'delivered' | 'failed';
  attempts: number;
  nextAttemptAtMs: number;
  lastStatus: number | null;
  lastError: string | null;
}

interface MessageRow {
  id: string;
  key_id: string;
  subject: string;
  url: string;
  event_type: string;
  payload: string;
  state: WebhookMessage['state'];
  attempts: number;
  next_attempt_at_ms: number;
  last_status: number | null;
  last_error: string | null;
}

function toMessage(row: MessageRow): WebhookMessage {
  return {
    id: row.id, keyId: row.key_id, subject: row.subject, url: row.url, eventType: row.event_type, payload: row.payload, state: row.state,
    attempts: row.attempts, nextAttemptAtMs: row.next_attempt_at_ms, lastStatus: row.last_status, lastError: row.last_error,
  };
}

export class WebhookMessages {
  private readonly database: SqlDatabase;
  /** Which instance delivers each message being attempted (the dispatcher's leases). */
  readonly leases: Leases;

  constructor(database: SqlDatabase) {
    this.database = database;
    this.leases = new Leases(database, 'webhook_messages');
  }

  /** Queues a message about `subject` (a job or monitor id) for immediate delivery. */
  async enqueue(keyId: string, subject: string, url: string, eventType: string, payload: unknown, nowMs: number): Promise<string> {
    const id = `msg_${ulid(nowMs)}`;
    await this.database.run(`INSERT INTO webhook_messages (id, key_id, subject, url, event_type, payload, state, next_attempt_at_ms, created_at) VALUES (?, ?, ?, ?, ?, ?, 'pending', ?, ?)`, [id, keyId, subject, url, eventType, JSON.stringify(payload), nowMs, new Date(nowMs).toISOString()]);
    return id;
  }

  /**
   * One page of the first pending message of each subject, when its attempt is due and no
   * instance is attempting it, by id from `afterId` (exclusive): a later event of a subject waits
   * until the earlier ones are delivered or given up.
   */
  async due(nowMs: number, afterId: string, limit: number): Promise<WebhookMessage[]> {
    return (await this.database.all<MessageRow>(`SELECT * FROM webhook_messages AS message WHERE state = 'pending' AND next_attempt_at_ms <= ? AND id > ?
      AND (lease_owner IS NULL OR lease_expires_at_ms <= ?)
      AND NOT EXISTS (SELECT 1 FROM webhook_messages AS earlier WHERE earlier.subject = message.subject AND earlier.state = 'pending' AND earlier.rowid < message.rowid)
      ORDER BY id LIMIT ?`, [nowMs, afterId, nowMs, limit])).map(toMessage);
  }

  /** Claims a pending message for `owner` to attempt, when no instance is attempting it (or its lease expired). */
  async claim(id: string, owner: string, nowMs: number, leaseMs: number): Promise<boolean> {
    return this.leases.claimOne(id, `state = 'pending'`, [], owner, nowMs, leaseMs);
  }

  /** The subject's first pending message, when its attempt is due. */
  async nextDue(subject: string, nowMs: number): Promise<WebhookMessage | undefined> {
    const row = await this.database.get<MessageRow>(`SELECT * FROM webhook_messages WHERE subject = ? AND state = 'pending' ORDER BY rowid LIMIT 1`, [subject]);
    return row && row.next_attempt_at_ms <= nowMs ? toMessage(row) : undefined;
  }

  /**
   * Records one attempt by the lease's `owner` and releases the lease: delivered, to retry at
   * `nextAttemptAtMs`, or failed for good. False, recording nothing, when another instance holds
   * the message by then (it makes and records its own attempt, under the same webhook-id).
   */
  async recordAttempt(id: string, owner: string, outcome: { state: WebhookMessage['state']; status: number | null; error: string | null; nextAttemptAtMs: number }): Promise<boolean> {
    const changed = await this.database.run(
      'UPDATE webhook_messages SET state = ?, attempts = attempts + 1, last_status = ?, last_error = ?, next_attempt_at_ms = ?, lease_owner = NULL, lease_expires_at_ms = NULL WHERE id = ? AND lease_owner = ?',
      [outcome.state, outcome.status, outcome.error, outcome.nextAttemptAtMs, id, owner],
    );
    return changed === 1;
  }

  async get(id: string): Promise<WebhookMessage | undefined> {
    const row = await this.database.get<MessageRow>('SELECT * FROM webhook_messages WHERE id = ?', [id]);
    return row ? toMessage(row) : undefined;
  }

  /** Every message of a key, oldest first. */
  async forKey(keyId: string): Promise<WebhookMessage[]> {
    return (await this.database.all<MessageRow>('SELECT * FROM webhook_messages WHERE key_id = ? ORDER BY rowid', [keyId])).map(toMessage);
  }
}
