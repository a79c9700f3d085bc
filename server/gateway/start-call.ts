/** First step of the gateway: gives the call its request id; when the answer is sent, logs one line and counts it in the metrics. */
import type { GatewayStep } from './steps.ts';
import type { Logger } from 'pino';
import { newRequestId } from '../../lib/request-id.ts';
import { NO_OPERATION, type Metrics } from '../operator/metrics.ts';
import { callOf, type Call } from './call.ts';

export function startCall(logger: Logger, metrics: Metrics): GatewayStep {
  // The request line's fields are ids, numbers and the path without its query: none can hold a key
  // or a body, so it is written without the redaction pass (which walks every field: 2/3 of its cost).
  const requestLine = logger.child({}, { redact: [] });
  return (req, res) => {
    const call: Call = { requestId: newRequestId(), startedAt: performance.now(), charged: 0, creditsRemaining: null, cached: false, xCache: 'BYPASS', unknownParameters: [] };
    res.locals.call = call;
    logger.debug({ request_id: call.requestId, method: req.method, path: req.path }, 'request received');
    res.on('finish', () => {
      const finished = callOf(res);
      const seconds = (performance.now() - finished.startedAt) / 1000;
      metrics.requestFinished(finished.operation?.operationId ?? NO_OPERATION, res.statusCode, seconds);
      requestLine.info({
        request_id: finished.requestId,
        operation: finished.operation?.operationId ?? null,
        method: req.method,
        path: req.path,
        status: res.statusCode,
        key_id: finished.key?.id ?? null,
        credits_used: finished.charged,
        cache: finished.xCache,
        latency_ms: Math.round(seconds * 10_000) / 10,
      }, 'request');
    });
  };
}
