/** The contract's error envelope and the four headers every answer carries, derived from its body (mock and server). */
import { contractDocument } from './contract-document.ts';
import { errorCatalog, type ErrorCode } from '../generated/errors.ts';

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

const serverUrl = new URL((contractDocument.servers as { url: string }[])[0]!.url);
const DOCS_BASE = `${serverUrl.origin}/docs/errors`;

/** Status and error envelope for an error `code`; no error charges credits. */
export function errorAnswer(code: ErrorCode, message: string, context: AnswerContext, requestId: string): { status: number; body: EnvelopeBody } {
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
      error: { code, type, message, status, doc_url: `${DOCS_BASE}#${code}` },
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
