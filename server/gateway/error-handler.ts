/**
 * The one error handler: every failure becomes the contract's error envelope. Credits drawn for
 * the call are refunded, a claimed Idempotency-Key is released, and nothing internal leaks.
 */
import type { ErrorRequestHandler } from 'express';
import type { Logger } from 'pino';
import { docsBaseUrl } from '../../lib/docs-link.ts';
import { errorAnswer } from '../../lib/envelope.ts';
import type { Clock } from '../clock.ts';
import type { Stores } from '../store/index.ts';
import { callOf } from './call.ts';
import { checkedJson, writeEnvelope, type SendOptions } from './send.ts';
import { ServiceError } from './service-error.ts';
import { internalError } from '../../lib/error-messages.ts';

/** `publicBaseUrl`: where the service is reached behind a proxy, for `doc_url` (null: the address the caller used). */
export function errorHandler(stores: Stores, clock: Clock, options: SendOptions, publicBaseUrl: string | null): ErrorRequestHandler {
  return async (error: unknown, req, res, next) => {
    if (res.headersSent) return next(error);
    const call = callOf(res);
    const failure = error instanceof ServiceError ? error : new ServiceError('internal_error', internalError(call.requestId));
    if (!(error instanceof ServiceError)) options.logger.error({ request_id: call.requestId, err: error }, 'unexpected failure');

    if (call.key && call.charged > 0) {
      call.creditsRemaining = await stores.ledger.refund(call.key.id, call.charged, { requestId: call.requestId, operationId: call.operation?.operationId }, new Date(clock.now()));
      call.charged = 0;
    }
    if (call.key && call.idempotencyKey) await stores.idempotency.release(call.key.id, call.idempotencyKey);
    if (call.key) call.creditsRemaining = await stores.ledger.balance(call.key.id);

    call.cached = false;
    call.xCache = 'BYPASS';
    const context = call.operation
      ? { platform: call.operation.platform, endpoint: call.operation.path, creditsRemaining: call.creditsRemaining }
      : { platform: failure.code === 'method_not_allowed' ? (req.path.split('/')[2] ?? 'unknown') : 'unknown', endpoint: req.path.replace(/^\/v1(?=\/)/, ''), creditsRemaining: call.creditsRemaining };
    const docsBase = docsBaseUrl(req, publicBaseUrl);
    const answer = errorAnswer(failure.code, failure.message, context, call.requestId, docsBase);
    try {
      writeEnvelope(res, answer.status, answer.body, checkedJson(res, answer.status, answer.body, options), failure.headers, options);
    } catch (broken) {
      if (!(broken instanceof ServiceError)) throw broken;
      // The error envelope itself broke the contract (logged): the caller gets an internal error, which is not checked.
      const internal = errorAnswer(broken.code, broken.message, context, call.requestId, docsBase);
      writeEnvelope(res, internal.status, internal.body, JSON.stringify(internal.body), {}, options);
    }
  };
}
