/** JSON bodies up to 1 MiB; malformed JSON, other media types and larger bodies become 422 envelopes. */
import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import { ServiceError } from './service-error.ts';
import { bodyTooLarge, invalidJsonBody } from '../../lib/error-messages.ts';

const jsonParser = express.json({ limit: '1mb', type: ['application/json', 'application/*+json'], strict: false });

export function parseJsonBody(): RequestHandler {
  return jsonParser;
}

/** Turns body-parser's errors into the contract's codes. */
export function bodyErrors(): ErrorRequestHandler {
  return (error: { type?: string; message?: string }, _req, _res, next) => {
    if (error.type === 'entity.too.large') return next(new ServiceError('body_too_large', bodyTooLarge()));
    if (error.type === 'entity.parse.failed') return next(new ServiceError('invalid_json_body', invalidJsonBody(error.message ?? 'it cannot be parsed')));
    if (error.type === 'encoding.unsupported' || error.type === 'charset.unsupported') {
      return next(new ServiceError('unsupported_media_type', `The request body's encoding is not supported: ${error.message}.`));
    }
    next(error);
  };
}
