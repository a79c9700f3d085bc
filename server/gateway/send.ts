/** Sends an envelope with the four headers derived from it, checked against the contract outside production. */
import type { Response } from 'express';
import type { Logger } from 'pino';
import { envelopeHeaders, type EnvelopeBody } from '../../lib/envelope.ts';
import { callOf } from './call.ts';
import { headerProblems } from './header-check.ts';

export interface SendOptions {
  checkHeaders: boolean;
  logger: Logger;
}

function setEarlier(res: Response): Record<string, string> {
  return Object.fromEntries(Object.entries(res.getHeaders()).map(([name, value]) => [name, String(value)]));
}

/** Writes `body` as JSON with `status`, the envelope headers and `extraHeaders`. */
export function sendEnvelope(res: Response, status: number, body: EnvelopeBody, extraHeaders: Record<string, string>, options: SendOptions): void {
  const call = callOf(res);
  const headers = { ...extraHeaders, ...envelopeHeaders(body, call.xCache) };
  if (options.checkHeaders) {
    // Headers set earlier on the way (the RateLimit fields) are part of the answer too.
    const problems = headerProblems(call.operation, status, { ...setEarlier(res), ...headers });
    if (problems.length > 0) options.logger.error({ request_id: call.requestId, status, problems }, 'answer headers do not match the contract');
  }
  res.status(status).set(headers).json(body);
}
