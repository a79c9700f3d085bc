/**
 * The IETF RateLimit fields (draft-ietf-httpapi-ratelimit-headers), written in one place for the
 * service and the mock: `RateLimit` and `RateLimit-Policy` on every answer to a call whose key is
 * valid, so a caller can pace itself before it meets a 429.
 */

/** A key's quota: `requests` per window of `windowSeconds`. */
export interface RateLimitQuota {
  readonly requests: number;
  readonly windowSeconds: number;
}

/** The policy a key has unless the operator gives it another (`RATE_LIMIT`, the default of the server's config). */
export const DEFAULT_RATE_LIMIT_POLICY: RateLimitQuota = { requests: 120, windowSeconds: 60 };

/** The policy's name in both fields: limits are counted per API key. */
const POLICY_NAME = 'per-key';

/** `RateLimit: "per-key";r=<remaining>;t=<seconds to reset>` and `RateLimit-Policy: "per-key";q=<requests>;w=<window>`. */
export function rateLimitFields(policy: RateLimitQuota, remaining: number, resetSeconds: number): { RateLimit: string; 'RateLimit-Policy': string } {
  return {
    RateLimit: `"${POLICY_NAME}";r=${remaining};t=${resetSeconds}`,
    'RateLimit-Policy': `"${POLICY_NAME}";q=${policy.requests};w=${policy.windowSeconds}`,
  };
}
