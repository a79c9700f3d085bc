/** Webhook messages waiting for delivery, delivered, or given up, one row per message (its id is `webhook-id`). */
import { ulid } from '../../lib/request-id.ts';
import type { SqlDatabase } from './sql.ts';

export interface WebhookMessage {
  id: string;
  keyId: string;
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
    id: row.id, keyId: row.key_id, url: row.url, eventType: row.event_type, payload: row.payload, state: row.state,
    attempts: row.attempts, nextAttemptAtMs: row.next_attempt_at_ms, lastStatus: row.last_status, lastError: row.last_error,
  };
}

export class WebhookMessages {
  private readonly database: SqlDatabase;

  constructor(database: SqlDatabase) {
    this.database = database;
  }

  /** Queues a message for immediate delivery. */
  async enqueue(keyId: string, url: string, eventType: string, payload: unknown, nowMs: number): Promise<string> {
    const id = `msg_${ulid(nowMs)}`;
    await this.database.run(`INSERT INTO webhook_messages (id, key_id, url, event_type, payload, state, next_attempt_at_ms, created_at) VALUES (?, ?, ?, ?, ?, 'pending', ?, ?)`, [id, keyId, url, eventType, JSON.stringify(payload), nowMs, new Date(nowMs).toISOString()]);
    return id;
  }

  /** Pending messages whose attempt is due, in the order they were queued. */
  async due(nowMs: number, limit: number): Promise<WebhookMessage[]> {
    return (await this.database.all<MessageRow>(`SELECT * FROM webhook_messages WHERE state = 'pending' AND next_attempt_at_ms <= ? ORDER BY rowid LIMIT ?`, [nowMs, limit])).map(toMessage);
  }

  /** Records one attempt: delivered, to retry at `nextAttemptAtMs`, or failed for good. */
  async recordAttempt(id: string, outcome: { state: WebhookMessage['state']; status: number | null; error: string | null; nextAttemptAtMs: number }): Promise<void> {
    await this.database.run('UPDATE webhook_messages SET state = ?, attempts = attempts + 1, last_status = ?, last_error = ?, next_attempt_at_ms = ? WHERE id = ?', [outcome.state, outcome.status, outcome.error, outcome.nextAttemptAtMs, id]);
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
