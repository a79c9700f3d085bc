/**
 * Answers an envelope: its body checked against the contract (answer-validator.ts) and serialised
 * once, then written with the four headers derived from it; the headers are checked against the
 * contract outside production.
 */
import type { Response } from 'express';
import type { Logger } from 'pino';
import { envelopeHeaders, type EnvelopeBody } from '../../lib/envelope.ts';
import { internalError } from '../../lib/error-messages.ts';
import { answerProblems } from './answer-validator.ts';
import { callOf } from './call.ts';
import { headerProblems } from './header-check.ts';
import { ServiceError } from './service-error.ts';

export interface SendOptions {
  checkHeaders: boolean;
  logger: Logger;
}

function setEarlier(res: Response): Record<string, string> {
  return Object.fromEntries(Object.entries(res.getHeaders()).map(([name, value]) => [name, String(value)]));
}

/**
 * `body` as JSON; `dataJson`, when given, is `body.data` serialised already (the response cache keeps
 * it so), written last in the object rather than serialised again.
 */
export function envelopeJson(body: EnvelopeBody, dataJson?: string): string {
  if (dataJson === undefined) return JSON.stringify(body);
  const { data: _data, ...envelope } = body;
  const head = JSON.stringify(envelope);
  return `${head.slice(0, -1)}${head === '{}' ? '' : ','}"data":${dataJson}}`;
}

/**
 * `body` as JSON, once it conforms to the contract's schema for the call's operation and `status`;
 * otherwise the problems are logged and an `internal_error` is thrown. `dataFromCache`: `body.data`
 * came from the response cache, checked when it was stored, so only the envelope is checked;
 * `dataJson`: `body.data` serialised already (see envelopeJson).
 */
export function checkedJson(res: Response, status: number, body: EnvelopeBody, options: SendOptions, { dataFromCache = false, dataJson }: { dataFromCache?: boolean; dataJson?: string } = {}): string {
  const call = callOf(res);
  const problems = answerProblems(call.operation, status, body, dataFromCache);
  if (problems.length > 0) {
    options.logger.error({ request_id: call.requestId, problems }, 'response does not match the contract');
    throw new ServiceError('internal_error', internalError(call.requestId));
  }
  return envelopeJson(body, dataJson);
}

/** Writes `json` (the serialised `body`) with `status`, the envelope headers and `extraHeaders`. */
export function writeEnvelope(res: Response, status: number, body: EnvelopeBody, json: string, extraHeaders: Record<string, string>, options: SendOptions): void {
  const call = callOf(res);
  const headers = { ...extraHeaders, ...envelopeHeaders(body, call.xCache) };
  if (options.checkHeaders) {
    // Headers set earlier on the way (the RateLimit fields) are part of the answer too.
    const problems = headerProblems(call.operation, status, { ...setEarlier(res), ...headers });
    if (problems.length > 0) options.logger.error({ request_id: call.requestId, status, problems }, 'answer headers do not match the contract');
  }
  // Written with Node's own calls, not Express's res.send: the body is final bytes already, with no ETag
  // or freshness to work out (res.send's own checks were about 6% of a cached call's CPU).
  res.statusCode = status;
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(json));
  res.end(json);
}
