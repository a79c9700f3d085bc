/**
 * Per-key rate limits in fixed windows (in memory, per process), with the IETF RateLimit fields on
 * every answer from here on (successes and errors alike), and 429 `rate_limited` with
 * `Retry-After` when a key is over.
 */
import type { RequestHandler } from 'express';
import type { Clock } from '../clock.ts';
import type { RateLimitPolicy } from '../config.ts';
import { callOf } from './call.ts';
import { ServiceError } from './service-error.ts';
import { rateLimited } from '../../lib/error-messages.ts';
import { rateLimitFields } from '../../lib/rate-limit-fields.ts';

interface Window {
  startsAt: number;
  count: number;
}

export class RateLimiter {
  private readonly windows = new Map<string, Window>();
  private readonly clock: Clock;

  constructor(clock: Clock) {
    this.clock = clock;
  }

  /** Counts one request of `keyId`; says whether it is allowed and what the fields should say. */
  take(keyId: string, policy: RateLimitPolicy): { allowed: boolean; remaining: number; resetSeconds: number } {
    const now = this.clock.now();
    const windowMs = policy.windowSeconds * 1000;
    const startsAt = now - (now % windowMs);
    let window = this.windows.get(keyId);
    if (!window || window.startsAt !== startsAt) {
      window = { startsAt, count: 0 };
      this.windows.set(keyId, window);
    }
    const resetSeconds = Math.max(1, Math.ceil((startsAt + windowMs - now) / 1000));
    if (window.count >= policy.requests) return { allowed: false, remaining: 0, resetSeconds };
    window.count += 1;
    return { allowed: true, remaining: policy.requests - window.count, resetSeconds };
  }
}

export function rateLimit(limiter: RateLimiter, defaultPolicy: RateLimitPolicy): RequestHandler {
  return (_req, res, next) => {
    const key = callOf(res).key!;
    const policy = key.rateLimit ?? defaultPolicy;
    const { allowed, remaining, resetSeconds } = limiter.take(key.id, policy);
    // On the response now, so every answer after this point carries them, errors included.
    res.set(rateLimitFields(policy, remaining, resetSeconds));
    if (!allowed) throw new ServiceError('rate_limited', rateLimited(policy, resetSeconds), { 'Retry-After': String(resetSeconds) });
    next();
  };
}
