/** First middleware: gives the call its request id and logs one line when the answer is sent. */
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import { newRequestId } from '../../lib/request-id.ts';
import { callOf, type Call } from './call.ts';

export function startCall(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const call: Call = { requestId: newRequestId(), startedAt: performance.now(), charged: 0, creditsRemaining: null, cached: false, xCache: 'BYPASS', unknownParameters: [] };
    res.locals.call = call;
    logger.debug({ request_id: call.requestId, method: req.method, path: req.path }, 'request received');
    res.on('finish', () => {
      const finished = callOf(res);
      logger.info({
        request_id: finished.requestId,
        operation: finished.operation?.operationId ?? null,
        method: req.method,
        path: req.path,
        status: res.statusCode,
        key_id: finished.key?.id ?? null,
        credits_used: finished.charged,
        cache: finished.xCache,
        latency_ms: Math.round((performance.now() - finished.startedAt) * 10) / 10,
      }, 'request');
    });
    next();
  };
}
