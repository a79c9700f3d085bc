/**
 * Delivers webhook messages per Standard Webhooks: signed with the key's `whsec_` secret
 * (HMAC-SHA256 over `id.timestamp.body`), POSTed to public addresses only, any 2xx within 10 s
 * acknowledges; otherwise retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h with the same
 * `webhook-id`, then given up. Every attempt's outcome is recorded on the message.
 *
 * Deliveries run concurrently, one lane per subject (a job or monitor): a lane delivers its
 * subject's events one at a time, in the order they were queued, and ends at the first that is not
 * acknowledged (it waits for its retry, and the later ones wait behind it). At most
 * `perReceiver` lanes talk to one receiver (scheme, host and port of the URL) at once, and at most
 * `inFlight` lanes run in all, so a receiver that never answers holds back only its own events.
 * Each attempt is made by the one instance holding the message's lease (`held-lease.ts`), claimed
 * before the POST and released when the attempt is recorded; an attempt is recorded only while the
 * lease is still the instance's.
 */
import { defaultLeaseTerms, HeldLease, type LeaseTerms } from '../held-lease.ts';
import { repeat, reportOnStderr } from '../repeat.ts';
import { createHmac } from 'node:crypto';
import { fetch, type Agent } from 'undici';
import type { Clock } from '../clock.ts';
import { checkedUrl, type AddressPolicy } from '../outbound/address-policy.ts';
import type { Stores } from '../store/index.ts';
import type { WebhookMessage } from '../store/webhook-messages.ts';

export const RETRY_DELAYS_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];
const ATTEMPT_TIMEOUT_MS = 10_000;

/** How many deliveries run at once: to one receiver, and in all. */
export interface DeliveryBounds {
  perReceiver: number;
  inFlight: number;
}

export const DEFAULT_DELIVERY_BOUNDS: DeliveryBounds = { perReceiver: 4, inFlight: 64 };

/** Due events read per query while looking for subjects and receivers with room. */
const DUE_PAGE = 100;

/** Who answers a webhook URL: its origin (one server, whatever the path). */
function receiverOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

/** `v1,<base64 HMAC-SHA256>` of `${id}.${timestamp}.${body}` with the secret's bytes (after `whsec_`). */
export function signWebhook(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64')}`;
}

export interface DispatcherOptions {
  bounds?: DeliveryBounds;
  /** This instance's leases on the messages it attempts. */
  lease?: LeaseTerms;
}

export class WebhookDispatcher {
  private readonly stores: Stores;
  private readonly clock: Clock;
  private readonly agent: Agent;
  private readonly policy: AddressPolicy;
  private readonly bounds: DeliveryBounds;
  private readonly terms: LeaseTerms;
  /** Subjects with a lane running here. */
  private readonly lanes = new Set<string>();
  /** Lanes running per receiver. */
  private readonly lanesPerReceiver = new Map<string, number>();
  private readonly running = new Set<Promise<void>>();
  /** Aborts the attempts under way when the dispatcher stops. */
  private readonly stopping = new AbortController();
  private stopRepeating: (() => void) | undefined;

  constructor(stores: Stores, clock: Clock, agent: Agent, policy: AddressPolicy, options: DispatcherOptions = {}) {
    this.stores = stores;
    this.clock = clock;
    this.agent = agent;
    this.policy = policy;
    this.bounds = options.bounds ?? DEFAULT_DELIVERY_BOUNDS;
    this.terms = options.lease ?? defaultLeaseTerms();
  }

  /** Starts due deliveries every `tickMs`, without waiting for those under way (a slow receiver holds back no tick). */
  start(tickMs: number): void {
    this.stopRepeating = repeat(tickMs, async () => {
      await this.startDue();
    });
  }

  /** Stops delivering: the attempts under way are abandoned unrecorded and their leases released, for another instance to make at once (under the same webhook-id). */
  async stop(): Promise<void> {
    this.stopRepeating?.();
    this.stopping.abort();
    await Promise.all(this.running);
  }

  /** Starts a lane for every subject with a due event and room under the bounds; resolves when those lanes end. */
  async tick(): Promise<void> {
    await Promise.all(await this.startDue());
  }

  /** Reads due events page by page (past subjects and receivers already busy) until the bounds are reached, and claims each before its lane starts. */
  private async startDue(): Promise<Promise<void>[]> {
    const started: Promise<void>[] = [];
    let afterId = '';
    while (this.lanes.size < this.bounds.inFlight && !this.stopping.signal.aborted) {
      const page = await this.stores.webhooks.due(this.clock.now(), afterId, DUE_PAGE);
      for (const message of page) {
        if (this.lanes.size >= this.bounds.inFlight) break;
        const receiver = receiverOf(message.url);
        const busy = this.lanesPerReceiver.get(receiver) ?? 0;
        if (this.lanes.has(message.subject) || busy >= this.bounds.perReceiver) continue;
        this.lanes.add(message.subject);
        this.lanesPerReceiver.set(receiver, busy + 1);
        if (!(await this.stores.webhooks.claim(message.id, this.terms.owner, this.clock.now(), this.terms.leaseMs))) {
          this.laneEnded(message.subject, receiver);
          continue;
        }
        const lane: Promise<void> = this.lane(message).catch(reportOnStderr).finally(() => {
          this.laneEnded(message.subject, receiver);
          this.running.delete(lane);
        });
        this.running.add(lane);
        started.push(lane);
      }
      if (page.length < DUE_PAGE) break;
      afterId = page.at(-1)!.id;
    }
    return started;
  }

  private laneEnded(subject: string, receiver: string): void {
    this.lanes.delete(subject);
    const left = (this.lanesPerReceiver.get(receiver) ?? 1) - 1;
    if (left === 0) this.lanesPerReceiver.delete(receiver);
    else this.lanesPerReceiver.set(receiver, left);
  }

  /** Delivers the subject's due events in order, from `first` (claimed), claiming each next one, until one is not acknowledged. */
  private async lane(first: WebhookMessage): Promise<void> {
    let message: WebhookMessage | undefined = first;
    while (message && (await this.attempt(message)) === 'delivered') {
      message = await this.stores.webhooks.nextDue(first.subject, this.clock.now());
      if (message && !(await this.stores.webhooks.claim(message.id, this.terms.owner, this.clock.now(), this.terms.leaseMs))) return;
    }
  }

  /**
   * One attempt at a claimed message, recorded on it under its lease; its new state, or
   * 'abandoned' when the dispatcher stopped mid-attempt or another instance took the message over.
   */
  private async attempt(message: WebhookMessage): Promise<WebhookMessage['state'] | 'abandoned'> {
    const lease = new HeldLease(this.stores.webhooks.leases, message.id, this.terms, this.clock);
    try {
      const outcome = await this.deliver(message);
      if (outcome === 'abandoned' || lease.lost) return 'abandoned';
      return (await this.stores.webhooks.recordAttempt(message.id, this.terms.owner, outcome)) ? outcome.state : 'abandoned';
    } finally {
      lease.stop();
      if (this.stopping.signal.aborted) await lease.release();
    }
  }

  /** POSTs the message once: the outcome to record, or 'abandoned' when the dispatcher stopped. */
  private async deliver(message: WebhookMessage): Promise<{ state: WebhookMessage['state']; status: number | null; error: string | null; nextAttemptAtMs: number } | 'abandoned'> {
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
          signal: AbortSignal.any([AbortSignal.timeout(ATTEMPT_TIMEOUT_MS), this.stopping.signal]),
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
    if (this.stopping.signal.aborted) return 'abandoned';
    const delay = RETRY_DELAYS_MS[message.attempts];
    const state = error === null ? 'delivered' : delay === undefined || !key ? 'failed' : 'pending';
    return { state, status, error, nextAttemptAtMs: this.clock.now() + (delay ?? 0) };
  }
}
