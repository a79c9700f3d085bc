/** What the gateway knows about one call, kept on `res.locals.call` from the first middleware on. */
import type { Response } from 'express';
import type { OperationRow } from '../../generated/operations.ts';
import type { XCache } from '../../lib/envelope.ts';
import type { ApiKey } from '../store/api-keys.ts';

export interface Call {
  requestId: string;
  startedAt: number;
  /** The operation the method and path address, once routed. */
  operation?: OperationRow;
  /** Its path parameters, decoded as Express decodes `req.params`; null when one is not well-formed percent-encoded UTF-8 (the validator refuses it). */
  pathParameters?: Record<string, string> | null;
  /** The caller's key, once authenticated. */
  key?: ApiKey;
  /** Credits drawn for this call and not (yet) refunded. */
  charged: number;
  /** The key's balance as last read or changed by this call. */
  creditsRemaining: number | null;
  cached: boolean;
  xCache: XCache;
  /** The Idempotency-Key this call claimed. */
  idempotencyKey?: string;
  /** Query parameters the operation does not declare, reported with the validator's findings. */
  unknownParameters: string[];
}

export function callOf(res: Response): Call {
  return res.locals.call as Call;
}
