/**
 * The route of one operation, after the gateway's checks: cross-parameter rules and availability,
 * the credit charge, the cache, the handler, and the success envelope. A failure anywhere goes to
 * the error handler, which refunds the charge.
 */
import type { Request, RequestHandler, Response } from 'express';
import type { OperationRow } from '../../generated/operations.ts';
import { contractDocument } from '../../lib/contract-document.ts';
import type { EnvelopeBody } from '../../lib/envelope.ts';
import { envelopeHeaders } from '../../lib/envelope.ts';
import { callOf } from '../gateway/call.ts';
import { checkedJson, writeEnvelope, type SendOptions } from '../gateway/send.ts';
import { ServiceError } from '../gateway/service-error.ts';
import { insufficientCredits } from '../../lib/error-messages.ts';
import type { Dependencies, OperationContext, OperationHandler } from './types.ts';

const WINDOW_SECONDS_DEFAULT = 900;

function wantsFresh(req: Request): boolean {
  return /(^|,)\s*no-cache\s*(,|$)/i.test(req.get('cache-control') ?? '');
}

/** How long a cached result may serve this call, in ms, or undefined when the cache is not consulted. */
function usableAgeMs(operation: OperationRow, req: Request, query: Record<string, unknown>): number | undefined {
  if (!operation.cache || wantsFresh(req)) return undefined;
  if (operation.cache.mode === 'max_age') {
    const maxAge = Number(query[operation.cache.parameter] ?? 0);
    return maxAge > 0 ? maxAge : undefined;
  }
  if (query.fresh === true) return undefined;
  return (operation.cache.ttlSeconds ?? WINDOW_SECONDS_DEFAULT) * 1000;
}

/** Cached data was checked against this version of the contract when it was stored (answer-validator.ts), so the version is part of its key. */
const CONTRACT_VERSION = (contractDocument.info as { version: string }).version;

function cacheKey(context: OperationContext): string {
  const { operation, key, query } = context;
  const parameters = Object.entries(query)
    .filter(([name]) => name !== 'fresh' && !(operation.cache?.mode === 'max_age' && name === operation.cache.parameter))
    .sort(([a], [b]) => (a < b ? -1 : 1));
  return `${CONTRACT_VERSION}:${key.sandbox ? 'sandbox' : 'live'}:${operation.operationId}:${JSON.stringify(parameters)}`;
}

interface CallData {
  data: Record<string, unknown>;
  /** `data` serialised: the cache's text on a hit, made once otherwise, for the answer and the cache alike. */
  dataJson: string;
  /** `data` came from the response cache. */
  fromCache: boolean;
  /** Where a fresh result of a cached operation is stored, once its answer passed the contract. */
  storeUnder?: string;
}

function fresh(data: Record<string, unknown>): CallData {
  return { data, dataJson: JSON.stringify(data), fromCache: false };
}

async function dataFor(context: OperationContext, handler: OperationHandler, req: Request): Promise<CallData> {
  const { operation, call, deps } = context;
  if (!operation.cache) return fresh(await handler.run(context));
  const key = cacheKey(context);
  const usableMs = usableAgeMs(operation, req, context.query);
  if (usableMs !== undefined) {
    const stored = await deps.stores.cache.get(key);
    if (stored && deps.clock.now() - stored.storedAtMs < usableMs) {
      call.cached = true;
      call.xCache = 'HIT';
      return { data: stored.data, dataJson: stored.json, fromCache: true };
    }
    call.xCache = 'MISS';
  }
  return { ...fresh(await handler.run(context)), storeUnder: key };
}

/**
 * Aborted when the caller hangs up before its answer is sent; made when a handler first asks for it
 * (a cached answer never does, and an AbortController per call was ~2% of one), aborted at once if
 * the caller is gone already.
 */
function abortOnHangUp(res: Response): AbortSignal {
  const controller = new AbortController();
  const hungUp = () => {
    if (!res.writableFinished) controller.abort(new Error('the caller hung up'));
  };
  if (res.closed) hungUp();
  else res.on('close', hungUp);
  return controller.signal;
}

/** The Express handler of `operation`. */
export function operationRoute(operation: OperationRow, handler: OperationHandler, deps: Dependencies, options: SendOptions): RequestHandler {
  return async (req, res) => {
    const call = callOf(res);
    const key = call.key!;
    let signal: AbortSignal | undefined;
    const context: OperationContext = {
      operation, call, key, deps,
      query: req.query as Record<string, unknown>,
      body: req.body as Record<string, any> | undefined,
      params: req.params as Record<string, string>,
      get signal() {
        return (signal ??= abortOnHangUp(res));
      },
    };
    await handler.check?.(context);

    const charge = await deps.stores.ledger.charge(key.id, operation.creditCost, { requestId: call.requestId, operationId: operation.operationId }, new Date(deps.clock.now()));
    call.creditsRemaining = charge.balance;
    if (!charge.ok) {
      throw new ServiceError('insufficient_credits', insufficientCredits(operation, charge.balance));
    }
    call.charged = operation.creditCost;

    const { data, dataJson, fromCache, storeUnder } = await dataFor(context, handler, req);
    const body: EnvelopeBody = {
      success: true,
      platform: operation.platform,
      endpoint: operation.path,
      credits_used: call.charged,
      credits_remaining: call.creditsRemaining,
      request_id: call.requestId,
      cached: call.cached,
      data,
    };
    // `data` serialised once, for the answer, its idempotency record and the cache; a body that breaks the contract throws (a 500, refunded).
    const json = checkedJson(res, 200, body, options, { dataFromCache: fromCache, dataJson });
    // Only data that passed the contract is cached: a later hit checks just its envelope.
    if (storeUnder) await deps.stores.cache.put(storeUnder, data, deps.clock.now(), dataJson);
    writeEnvelope(res, 200, body, json, {}, options);
    if (call.idempotencyKey) {
      await deps.stores.idempotency.complete(key.id, call.idempotencyKey, { status: 200, headers: envelopeHeaders(body, call.xCache), body: json });
    }
  };
}
