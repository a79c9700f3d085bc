/** The contract's error envelope and the four headers every answer carries, derived from its body (mock and server). */
import { errorCatalog, type ErrorCode } from '../generated/errors.ts';
import { errorDocUrl } from './docs-link.ts';

export type XCache = 'HIT' | 'MISS' | 'BYPASS';

/** Who answers: the operation (or `unknown` and the requested path) and the key's balance. */
export interface AnswerContext {
  platform: string;
  endpoint: string;
  creditsRemaining: number | null;
}

export interface EnvelopeBody {
  success: boolean;
  platform: string;
  endpoint: string;
  credits_used: number;
  credits_remaining: number | null;
  request_id: string;
  cached: boolean;
  [field: string]: unknown;
}

/**
 * Status and error envelope for an error `code`; no error charges credits. `docsBase` is the
 * reference's address as the caller reached it (docs-link.ts), where `doc_url` points.
 */
export function errorAnswer(code: ErrorCode, message: string, context: AnswerContext, requestId: string, docsBase: string): { status: number; body: EnvelopeBody } {
  const { status, type } = errorCatalog[code];
  return {
    status,
    body: {
      success: false,
      platform: context.platform,
      endpoint: context.endpoint,
      credits_used: 0,
      credits_remaining: context.creditsRemaining,
      request_id: requestId,
      cached: false,
      error: { code, type, message, status, doc_url: errorDocUrl(docsBase, code) },
    },
  };
}

/** The four envelope headers, agreeing with the body they go with. */
export function envelopeHeaders(body: EnvelopeBody, xCache: XCache): Record<string, string> {
  return {
    'X-Request-Id': body.request_id,
    'X-Credits-Used': String(body.credits_used),
    'X-Credits-Remaining': body.credits_remaining === null ? 'unknown' : String(body.credits_remaining),
    'X-Cache': xCache,
  };
}
