/**
 * express-openapi-validator over the bundled contract: every request is checked. Its errors become
 * one 422 `invalid_parameters` naming every offending parameter. Answers are checked by
 * answer-validator.ts, on their way out (send.ts).
 */
import type { ErrorRequestHandler, RequestHandler } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import type { Logger } from 'pino';
import { contractDocument } from '../../lib/contract-document.ts';
import { callOf } from './call.ts';
import { ServiceError } from './service-error.ts';
import { internalError, invalidParameters as invalidParametersMessage, malformedPathEncoding, unsupportedMediaType } from '../../lib/error-messages.ts';

interface ValidatorErrorItem {
  path?: string;
  message?: string;
  errorCode?: string;
}

interface ValidatorError {
  status?: number;
  message?: string;
  errors?: ValidatorErrorItem[];
}

/** `/query/timeout` + `must be integer` → `query.timeout must be integer`. */
function describe(item: ValidatorErrorItem): string {
  // The validator's own words for a path it cannot decode: "malformed uri'", at the path.
  if (item.message === "malformed uri'") return malformedPathEncoding(item.path ?? '');
  const location = (item.path ?? '').replace(/^\//, '').replace(/\//g, '.');
  const message = item.message ?? 'is not valid';
  const required = /must have required property '([^']+)'/.exec(message);
  if (required) return `${location.endsWith(`.${required[1]}`) ? location : `${location}.${required[1]}`} is required`;
  if (item.errorCode?.startsWith('additionalProperties')) return `${location} is not allowed`;
  return `${location} ${message}`;
}

function invalidParameters(problems: string[]): ServiceError {
  return new ServiceError('invalid_parameters', invalidParametersMessage(problems));
}

const RESERVED_LEFT_BY_ENCODE_URI_COMPONENT = /[!'()*]/g;

function encodeStrictly(text: string): string {
  return encodeURIComponent(text).replace(RESERVED_LEFT_BY_ENCODE_URI_COMPONENT, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * Re-encodes the query string percent-encoding every reserved character, as the validator wants.
 * Callers may send values form-encoded (`+` for a space) or with reserved characters as is, as
 * browsers, curl and the mock accept; the values the operation sees are the same either way.
 */
const NEEDS_ENCODING = /[:/?#[\]@!$'()*+,;=]/;

const canonicalQuery: RequestHandler = (req, _res, next) => {
  const queryStart = req.url.indexOf('?');
  if (queryStart >= 0 && NEEDS_ENCODING.test(req.url.slice(queryStart + 1).replace(/[&=]/g, ''))) {
    const pairs = [...new URLSearchParams(req.url.slice(queryStart + 1))];
    const canonical = pairs.map(([name, value]) => `${encodeStrictly(name)}=${encodeStrictly(value)}`).join('&');
    req.url = `${req.url.slice(0, queryStart)}?${canonical}`;
    const originalStart = req.originalUrl.indexOf('?');
    req.originalUrl = `${req.originalUrl.slice(0, originalStart)}?${canonical}`;
  }
  next();
};

/**
 * The contract validator, with unknown query parameters noted first and reported together with
 * the validator's findings, so one 422 names every offending parameter.
 */
export function contractValidator(): RequestHandler[] {
  const noteUnknownParameters: RequestHandler = (req, res, next) => {
    const call = callOf(res);
    const declared = call.operation!.queryParameters;
    call.unknownParameters = Object.keys(req.query as object)
      .filter((name) => !declared.includes(name))
      .map((name) => `query.${name} is not a parameter of ${call.operation!.operationId}`);
    next();
  };
  const rejectUnknownParameters: RequestHandler = (_req, res, next) => {
    const { unknownParameters } = callOf(res);
    next(unknownParameters.length > 0 ? invalidParameters(unknownParameters) : undefined);
  };
  return [canonicalQuery, noteUnknownParameters, ...validatorMiddleware(), rejectUnknownParameters];
}

function validatorMiddleware(): RequestHandler[] {
  return OpenApiValidator.middleware({
    apiSpec: structuredClone(contractDocument) as never,
    validateApiSpec: false,
    // Query, path and header values are typed from text; bodies are not coerced, so `"limit": "10"` is refused.
    validateRequests: { allowUnknownQueryParameters: true, allErrors: true },
    // Formats as the contract defines them (RFC 3986 for `uri`, real calendar dates), not the
    // validator's default "fast" approximations, which let `http://a.example#\u0000` through.
    ajvFormats: { mode: 'full' },
    // Answers are checked by answer-validator.ts (see server/README.md).
    validateResponses: false,
    validateSecurity: false,
    ignoreUndocumented: true,
    $refParser: { mode: 'bundle' },
  });
}

/** Turns the validator's errors into the contract's. */
export function validatorErrors(logger: Logger): ErrorRequestHandler {
  return (error: ValidatorError, req, res, next) => {
    if (error instanceof ServiceError || !Array.isArray(error.errors) || typeof error.status !== 'number') return next(error);
    const call = callOf(res);
    if (error.status === 500) {
      logger.error({ request_id: call.requestId, problems: error.errors }, 'response does not match the contract');
      return next(new ServiceError('internal_error', internalError(call.requestId)));
    }
    if (error.status === 415) return next(new ServiceError('unsupported_media_type', unsupportedMediaType(req.get('content-type') ?? '')));
    next(invalidParameters([...call.unknownParameters, ...error.errors.map(describe)]));
  };
}
