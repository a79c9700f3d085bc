/**
 * Delivers webhook messages per Standard Webhooks: signed with the key's `whsec_` secret
 * (HMAC-SHA256 over `id.timestamp.body`), POSTed to public addresses only, any 2xx within 10 s
 * acknowledges; otherwise retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h with the same
 * `webhook-id`, then given up. Every attempt's outcome is recorded on the message.
 */
import { repeat } from '../repeat.ts';
import { createHmac } from 'node:crypto';
import { fetch, type Agent } from 'undici';
import type { Clock } from '../clock.ts';
import { checkedUrl, type AddressPolicy } from '../outbound/address-policy.ts';
import type { Stores } from '../store/index.ts';
import type { WebhookMessage } from '../store/webhook-messages.ts';

export const RETRY_DELAYS_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];
const ATTEMPT_TIMEOUT_MS = 10_000;
const BATCH = 20;

/** `v1,<base64 HMAC-SHA256>` of `${id}.${timestamp}.${body}` with the secret's bytes (after `whsec_`). */
export function signWebhook(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64')}`;
}

export class WebhookDispatcher {
  private readonly stores: Stores;
  private readonly clock: Clock;
  private readonly agent: Agent;
  private readonly policy: AddressPolicy;
  private stopRepeating: (() => void) | undefined;

  constructor(stores: Stores, clock: Clock, agent: Agent, policy: AddressPolicy) {
    this.stores = stores;
    this.clock = clock;
    this.agent = agent;
    this.policy = policy;
  }

  start(tickMs: number): void {
    this.stopRepeating = repeat(tickMs, () => this.tick());
  }

  stop(): void {
    this.stopRepeating?.();
  }

  /** Attempts every due message once, oldest first, so the events of one job arrive in order. */
  async tick(): Promise<void> {
    for (const message of await this.stores.webhooks.due(this.clock.now(), BATCH)) await this.attempt(message);
  }

  private async attempt(message: WebhookMessage): Promise<void> {
    const key = await this.stores.keys.get(message.keyId);
    let status: number | null = null;
    let error: string | null = null;
    if (!key) error = 'the API key no longer exists';
    else {
      const timestampSeconds = Math.floor(this.clock.now() / 1000);
      try {
        const url = checkedUrl(message.url, this.policy, 'webhook_url').href;
        const response = await fetch(url, {
          method: 'POST',
          dispatcher: this.agent,
          redirect: 'manual',
          signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
          headers: {
            'content-type': 'application/json',
            'webhook-id': message.id,
            'webhook-timestamp': String(timestampSeconds),
            'webhook-signature': signWebhook(key.webhookSecret, message.id, timestampSeconds, message.payload),
          },
          body: message.payload,
        });
        await response.body?.cancel();
        status = response.status;
        if (status < 200 || status >= 300) error = `the receiver answered ${status}`;
      } catch (failure) {
        error = (failure as { cause?: { message?: string } }).cause?.message ?? (failure as Error).message;
      }
    }
    const delay = RETRY_DELAYS_MS[message.attempts];
    const state = error === null ? 'delivered' : delay === undefined || !key ? 'failed' : 'pending';
    await this.stores.webhooks.recordAttempt(message.id, { state, status, error, nextAttemptAtMs: this.clock.now() + (delay ?? 0) });
  }
}
