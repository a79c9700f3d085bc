/**
 * The request validator the server used before its own (validator.ts): express-openapi-validator
 * over the bundled contract, with unknown query parameters noted first and its errors turned into
 * the contract's. Kept only as the oracle of validator-equivalence.test.ts, which holds the
 * server's validator to the same verdicts, messages and typed values.
 */
import type { ErrorRequestHandler, RequestHandler } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import { contractDocument } from '../../lib/contract-document.ts';
import { callOf } from '../gateway/call.ts';
import { ServiceError } from '../gateway/service-error.ts';
import { canonicalQuery, describe, invalidParameters, unknownParameters, type ValidatorErrorItem } from '../gateway/validator.ts';
import { unsupportedMediaType } from '../../lib/error-messages.ts';

interface ValidatorError {
  status?: number;
  errors?: ValidatorErrorItem[];
}

export function oracleValidator(): RequestHandler[] {
  const canonical: RequestHandler = (req, _res, next) => {
    canonicalQuery(req);
    next();
  };
  const noteUnknownParameters: RequestHandler = (req, res, next) => {
    callOf(res).unknownParameters = unknownParameters(callOf(res).operation!, req.query as object);
    next();
  };
  const rejectUnknownParameters: RequestHandler = (_req, res, next) => {
    const { unknownParameters: unknown } = callOf(res);
    next(unknown.length > 0 ? invalidParameters(unknown) : undefined);
  };
  const validator = OpenApiValidator.middleware({
    apiSpec: structuredClone(contractDocument) as never,
    validateApiSpec: false,
    validateRequests: { allowUnknownQueryParameters: true, allErrors: true },
    ajvFormats: { mode: 'full' },
    validateResponses: false,
    validateSecurity: false,
    ignoreUndocumented: true,
    $refParser: { mode: 'bundle' },
  });
  return [canonical, noteUnknownParameters, ...validator, rejectUnknownParameters];
}

/** Turns the oracle's errors into the contract's, as the server did. */
export function oracleErrors(): ErrorRequestHandler {
  return (error: ValidatorError, req, res, next) => {
    if (error instanceof ServiceError || !Array.isArray(error.errors) || typeof error.status !== 'number') return next(error);
    if (error.status === 415) return next(new ServiceError('unsupported_media_type', unsupportedMediaType(req.get('content-type') ?? '')));
    next(invalidParameters([...callOf(res).unknownParameters, ...error.errors.map(describe)]));
  };
}
