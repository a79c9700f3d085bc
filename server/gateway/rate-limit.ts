/**
 * Per-key rate limits in fixed windows, counted in the database (store/rate-limit-windows.ts), so
 * every instance on it shares one window per key, with the IETF RateLimit fields on every answer
 * from here on (successes and errors alike), and 429 `rate_limited` with `Retry-After` when a key
 * is over.
 */
import type { Clock } from '../clock.ts';
import type { RateLimitPolicy } from '../config.ts';
import type { RateLimitWindows } from '../store/rate-limit-windows.ts';
import { callOf } from './call.ts';
import { ServiceError } from './service-error.ts';
import type { GatewayStep } from './steps.ts';
import { rateLimited } from '../../lib/error-messages.ts';
import { rateLimitFields } from '../../lib/rate-limit-fields.ts';

export class RateLimiter {
  private readonly windows: RateLimitWindows;
  private readonly clock: Clock;

  constructor(windows: RateLimitWindows, clock: Clock) {
    this.windows = windows;
    this.clock = clock;
  }

  /** Counts one request of `keyId`; says whether it is allowed and what the fields should say. */
  async take(keyId: string, policy: RateLimitPolicy): Promise<{ allowed: boolean; remaining: number; resetSeconds: number }> {
    const now = this.clock.now();
    const windowMs = policy.windowSeconds * 1000;
    const startsAt = now - (now % windowMs);
    const count = await this.windows.count(keyId, startsAt);
    const resetSeconds = Math.max(1, Math.ceil((startsAt + windowMs - now) / 1000));
    if (count > policy.requests) return { allowed: false, remaining: 0, resetSeconds };
    return { allowed: true, remaining: policy.requests - count, resetSeconds };
  }
}

export function rateLimit(limiter: RateLimiter, defaultPolicy: RateLimitPolicy): GatewayStep {
  return async (_req, res) => {
    const key = callOf(res).key!;
    const policy = key.rateLimit ?? defaultPolicy;
    const { allowed, remaining, resetSeconds } = await limiter.take(key.id, policy);
    // On the response now, so every answer after this point carries them, errors included.
    res.set(rateLimitFields(policy, remaining, resetSeconds));
    if (!allowed) throw new ServiceError('rate_limited', rateLimited(policy, resetSeconds), { 'Retry-After': String(resetSeconds) });
  };
}
