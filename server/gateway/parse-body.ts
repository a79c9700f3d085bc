/**
 * JSON bodies up to 1 MiB; malformed JSON, other media types and larger bodies become 422
 * envelopes, and so does a missing (or blank) body where the operation requires one.
 */
import express, { type Request, type Response } from 'express';
import { missingBodyMessage } from '../../lib/request-body.ts';
import { callOf } from './call.ts';
import { ServiceError } from './service-error.ts';
import type { GatewayStep } from './steps.ts';
import { bodyTooLarge, invalidJsonBody, undecodableBody, unsupportedBodyEncoding } from '../../lib/error-messages.ts';

/** A call that sends no body at all: no `Content-Length` (or `0`) and not chunked. */
function requireBody(req: Request, res: Response): void {
  const operation = callOf(res).operation!;
  const sendsNoBody = req.headers['transfer-encoding'] === undefined && Number(req.headers['content-length'] ?? 0) === 0;
  if (operation.requestBody === 'required' && sendsNoBody) throw new ServiceError('invalid_parameters', missingBodyMessage(operation));
}

const jsonParser = express.json({
  limit: '1mb',
  type: ['application/json', 'application/*+json'],
  strict: false,
  // A chunked body with no bytes, or only whitespace, is no body either (as on the mock).
  verify: (_req, res, buffer) => {
    const operation = callOf(res as express.Response).operation!;
    if (operation.requestBody === 'required' && buffer.toString('utf8').trim() === '') throw new ServiceError('invalid_parameters', missingBodyMessage(operation));
  },
});

/**
 * body-parser's errors in the contract's codes. `contentEncoding`: the call's; a body it does not decode
 * is a 400 of the decompressor's with no `type` (it was answered 500 internal_error).
 */
export function bodyError(error: { type?: string; message?: string; status?: number }, contentEncoding: string | undefined): unknown {
  if (error instanceof ServiceError) return error;
  if (error.type === 'entity.too.large') return new ServiceError('body_too_large', bodyTooLarge());
  if (error.type === 'entity.parse.failed') return new ServiceError('invalid_json_body', invalidJsonBody(error.message ?? 'it cannot be parsed'));
  if (error.type === 'encoding.unsupported' || error.type === 'charset.unsupported') {
    return new ServiceError('unsupported_media_type', unsupportedBodyEncoding(error.message ?? 'unknown'));
  }
  if (error.type === undefined && error.status === 400 && contentEncoding !== undefined) {
    return new ServiceError('malformed_request', undecodableBody(contentEncoding, error.message ?? 'it cannot be decoded'));
  }
  return error;
}

/** Whether the call sends a body at all, as body-parser tells (type-is's `hasBody`): without one, the parser has nothing to do. */
function sendsBody(req: Request): boolean {
  return req.headers['transfer-encoding'] !== undefined || !Number.isNaN(Number(req.headers['content-length']));
}

export function parseJsonBody(): GatewayStep {
  return (req, res) => {
    requireBody(req, res);
    if (!sendsBody(req)) return;
    return new Promise<void>((resolve, reject) => {
      void jsonParser(req, res, (error?: unknown) => (error ? reject(bodyError(error as { type?: string }, req.headers['content-encoding'])) : resolve()));
    });
  };
}
