/**
 * Idempotency-Key, Stripe-like: the first call with a key claims it; its 200 answer is stored and
 * replayed to a repeat of the same request with `Idempotent-Replayed: true`, uncharged. Another
 * request with the key, or a repeat while the first runs, answers 409.
 */
import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import type { Clock } from '../clock.ts';
import type { IdempotencyRecords } from '../store/idempotency-records.ts';
import type { InFlightWork } from '../in-flight.ts';
import { callOf } from './call.ts';
import { ServiceError } from './service-error.ts';
import type { GatewayStep, StepResult } from './steps.ts';
import { idempotencyKeyReused, idempotencyRequestInProgress } from '../../lib/error-messages.ts';

/** Method, path, query (in order) and body of a request, hashed. */
function fingerprint(req: Request): string {
  const url = new URL(req.originalUrl, 'http://fingerprint.local');
  url.searchParams.sort();
  return createHash('sha256')
    .update(`${req.method} ${url.pathname}?${url.searchParams.toString()}\n${req.body === undefined ? '' : JSON.stringify(req.body)}`)
    .digest('hex');
}

export function idempotency(records: IdempotencyRecords, clock: Clock, inFlight: InFlightWork): GatewayStep {
  const claimOrReplay = async (req: Request, res: Response, idempotencyKey: string): Promise<StepResult> => {
    const call = callOf(res);
    const keyId = call.key!.id;
    const claim = await records.claim(keyId, idempotencyKey, fingerprint(req), clock.now());
    if (claim.kind === 'claimed') {
      call.idempotencyKey = idempotencyKey;
      // A caller that hangs up before the answer leaves the key free for its retry.
      res.on('close', () => {
        if (!res.writableFinished) void inFlight.track(records.release(keyId, idempotencyKey));
      });
      return;
    }
    if (!claim.sameRequest) {
      throw new ServiceError('idempotency_key_reused', idempotencyKeyReused(idempotencyKey, req.method, req.path));
    }
    if (claim.kind === 'in_flight') {
      throw new ServiceError('idempotency_request_in_progress', idempotencyRequestInProgress(idempotencyKey));
    }
    const stored = JSON.parse(claim.answer.body) as { request_id: string; credits_used: number; credits_remaining: number | null; cached: boolean };
    call.xCache = claim.answer.headers['X-Cache'] as typeof call.xCache;
    call.cached = stored.cached;
    res.status(claim.answer.status).set({ ...claim.answer.headers, 'Idempotent-Replayed': 'true', 'Content-Type': 'application/json; charset=utf-8' }).send(claim.answer.body);
    return 'answered';
  };
  // Synchronous for a call without the header, so that the gateway need not wait on it.
  return (req, res) => {
    const idempotencyKey = req.get('idempotency-key');
    return idempotencyKey ? claimOrReplay(req, res, idempotencyKey) : undefined;
  };
}
