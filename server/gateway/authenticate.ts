/**
 * 401 for a missing, unknown, expired or revoked key (`authenticate`); 403 when its scopes lack
 * the operation's platform (`authorize`, after the rate limit, so a denied call is counted and
 * its answer carries the key's RateLimit fields like any other).
 */
import type { Request } from 'express';
import type { Clock } from '../clock.ts';
import type { ApiKey, ApiKeyStore } from '../store/api-keys.ts';
import { callOf } from './call.ts';
import { ServiceError } from './service-error.ts';
import type { GatewayStep } from './steps.ts';
import { apiKeyExpired, apiKeyInvalid, apiKeyMissing, apiKeyRevoked, scopeDenied } from '../../lib/error-messages.ts';

/** The call's key when it is valid (issued here, not revoked, not expired), or the error that says why not. */
export async function keyOf(req: Request, keys: ApiKeyStore, clock: Clock): Promise<ApiKey | ServiceError> {
  const secret = req.get('x-api-key');
  if (!secret) return new ServiceError('api_key_missing', apiKeyMissing());
  const key = await keys.findBySecret(secret);
  if (!key) return new ServiceError('api_key_invalid', apiKeyInvalid());
  if (key.revokedAt) return new ServiceError('api_key_revoked', apiKeyRevoked(key.revokedAt));
  if (key.expiresAt && Date.parse(key.expiresAt) <= clock.now()) return new ServiceError('api_key_expired', apiKeyExpired(key.expiresAt));
  return key;
}

export function authenticate(keys: ApiKeyStore, clock: Clock): GatewayStep {
  return async (req, res) => {
    const call = callOf(res);
    const key = await keyOf(req, keys, clock);
    if (key instanceof ServiceError) throw key;
    call.key = key;
    call.creditsRemaining = key.balance;
  };
}

export function authorize(): GatewayStep {
  return (_req, res) => {
    const call = callOf(res);
    const key = call.key!;
    const operation = call.operation!;
    const missing = operation.scopes.filter((scope) => !key.scopes.includes(scope as never));
    if (missing.length > 0) {
      throw new ServiceError('scope_denied', scopeDenied(operation, key.scopes, missing));
    }
  };
}
