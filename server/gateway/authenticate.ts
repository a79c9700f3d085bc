/** 401 for a missing, unknown, expired or revoked key; 403 when its scopes lack the operation's platform. */
import type { RequestHandler } from 'express';
import type { Clock } from '../clock.ts';
import type { ApiKeyStore } from '../store/api-keys.ts';
import { callOf } from './call.ts';
import { ServiceError } from './service-error.ts';

export function authenticate(keys: ApiKeyStore, clock: Clock): RequestHandler {
  return (req, res, next) => {
    const call = callOf(res);
    const secret = req.get('x-api-key');
    if (!secret) throw new ServiceError('api_key_missing', 'Missing API key: send it in the x-api-key header.');
    const key = keys.findBySecret(secret);
    if (!key) throw new ServiceError('api_key_invalid', 'Invalid API key: this key was not issued by this service.');
    if (key.revokedAt) throw new ServiceError('api_key_revoked', `API key was revoked at ${key.revokedAt}.`);
    if (key.expiresAt && Date.parse(key.expiresAt) <= clock.now()) throw new ServiceError('api_key_expired', `API key expired at ${key.expiresAt}.`);
    call.key = key;
    call.creditsRemaining = key.balance;
    const operation = call.operation!;
    const missing = operation.scopes.filter((scope) => !key.scopes.includes(scope as never));
    if (missing.length > 0) {
      throw new ServiceError('scope_denied', `This key has the scopes ${key.scopes.join(', ') || '(none)'}; ${operation.path.slice(1)} needs the scope ${missing.join(', ')}.`);
    }
    next();
  };
}
