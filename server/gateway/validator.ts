/**
 * The contract's check of every request: query, headers and path parameters typed from text, the
 * JSON body as sent, formats as the contract defines them. Every problem becomes one 422
 * `invalid_parameters` naming each offending parameter; a body of another media type, 415.
 *
 * It does what express-openapi-validator did (its words, its typing of query values, its
 * defaults), with one Ajv validator per operation compiled at its first use, instead of the
 * validator's route lookup, promise hops and URL parsing on every call (server/README.md,
 * "Checking requests"). validator-equivalence.test.ts holds it to the old validator's answers.
 */
import type { Request } from 'express';
import { Ajv2020, type ErrorObject, type Options, type ValidateFunction } from 'ajv/dist/2020.js';
import qs from 'qs';
import { operations, type OperationId, type OperationRow } from '../../generated/operations.ts';
import { withContractFormats } from '../../lib/contract-formats.ts';
import { callOf } from './call.ts';
import { chooseMediaType } from './media-type.ts';
import { requestSchemas, type RequestSchemas } from './request-schemas.ts';
import { ServiceError } from './service-error.ts';
import type { GatewayStep } from './steps.ts';
import { invalidParameters as invalidParametersMessage, malformedPathEncoding, unsupportedMediaType } from '../../lib/error-messages.ts';

export interface ValidatorErrorItem {
  path?: string;
  message?: string;
  errorCode?: string;
}

/** `/query/timeout` + `must be integer` → `query.timeout must be integer`. */
export function describe(item: ValidatorErrorItem): string {
  // The validator's own words for a path it cannot decode: "malformed uri'", at the path.
  if (item.message === "malformed uri'") return malformedPathEncoding(item.path ?? '');
  const location = (item.path ?? '').replace(/^\//, '').replace(/\//g, '.');
  const message = item.message ?? 'is not valid';
  const required = /must have required property '([^']+)'/.exec(message);
  if (required) return `${location.endsWith(`.${required[1]}`) ? location : `${location}.${required[1]}`} is required`;
  if (item.errorCode?.startsWith('additionalProperties')) return `${location} is not allowed`;
  return `${location} ${message}`;
}

export function invalidParameters(problems: string[]): ServiceError {
  return new ServiceError('invalid_parameters', invalidParametersMessage(problems));
}

const RESERVED_LEFT_BY_ENCODE_URI_COMPONENT = /[!'()*]/g;

function encodeStrictly(text: string): string {
  return encodeURIComponent(text).replace(RESERVED_LEFT_BY_ENCODE_URI_COMPONENT, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * Re-encodes the query string percent-encoding every reserved character. Callers may send values
 * form-encoded (`+` for a space) or with reserved characters as is, as browsers, curl and the mock
 * accept; the values the operation sees are the same either way. (express-openapi-validator
 * refused a reserved character written as is; after this, none is left in a written value.)
 */
const NEEDS_ENCODING = /[:/?#[\]@!$'()*+,;=]/;

export function canonicalQuery(req: Request): void {
  const queryStart = req.url.indexOf('?');
  if (queryStart >= 0 && NEEDS_ENCODING.test(req.url.slice(queryStart + 1).replace(/[&=]/g, ''))) {
    const pairs = [...new URLSearchParams(req.url.slice(queryStart + 1))];
    const canonical = pairs.map(([name, value]) => `${encodeStrictly(name)}=${encodeStrictly(value)}`).join('&');
    req.url = `${req.url.slice(0, queryStart)}?${canonical}`;
    const originalStart = req.originalUrl.indexOf('?');
    req.originalUrl = `${req.originalUrl.slice(0, originalStart)}?${canonical}`;
  }
}

/** Query parameters the operation does not declare, reported with the other problems. */
export function unknownParameters(operation: OperationRow, query: object): string[] {
  return Object.keys(query)
    .filter((name) => !operation.queryParameters.includes(name))
    .map((name) => `query.${name} is not a parameter of ${operation.operationId}`);
}

/** A name with brackets (`a[b]=1`) read as qs reads it, replacing the bare name, as the old validator did before typing. */
function readBracketNames(query: Record<string, unknown>): void {
  for (const name of Object.keys(query)) {
    if (!name.includes('[')) continue;
    const bare = name.split('[')[0]!;
    const parsed = qs.parse(`${name}=${query[name] as string}`)[bare];
    if (parsed !== undefined) {
      const given = query[bare];
      const merge = given && typeof given === 'object' && typeof parsed === 'object' && !Array.isArray(parsed);
      query[bare] = merge ? { ...(given as object), ...parsed } : parsed;
    }
    delete query[name];
  }
}

/** An Ajv error as the old validator reported it: enum errors list the allowed values, a missing or extra property is named in the path. */
function itemOf(error: ErrorObject): ValidatorErrorItem {
  const params = error.params as Record<string, unknown>;
  const allowed = error.keyword === 'enum' ? (params.allowedValues as unknown[] | undefined) : undefined;
  const named = (property: unknown) => (property ? `${error.instancePath}/${property as string}` : (property as string | undefined));
  return {
    path: named(params.missingProperty) ?? named(params.additionalProperty) ?? named(params.unevaluatedProperty) ?? error.instancePath,
    message: allowed ? `${error.message}: ${allowed.join(', ')}` : error.message,
    errorCode: `${error.keyword}.openapi.validation`,
  };
}

const AJV_OPTIONS: Options = {
  strict: false, strictNumbers: true, strictTuples: true, allowUnionTypes: false, validateSchema: false,
  useDefaults: true, removeAdditional: false, allErrors: true,
};

function contractAjv(coerceTypes: boolean): Ajv2020 {
  const ajv = withContractFormats(new Ajv2020({ ...AJV_OPTIONS, coerceTypes }));
  // OpenAPI 3.1 names this format without defining it: any string.
  ajv.addFormat('media-range', true);
  return ajv;
}

/** One operation's schemas and, once compiled, its validators. */
interface OperationValidators {
  schemas: RequestSchemas;
  parameters?: ValidateFunction;
  bodies: Map<string, ValidateFunction>;
}

/** Query, path and header values are typed from text; bodies are not coerced, so `"limit": "10"` is refused. */
const parametersAjv = contractAjv(true);
const bodyAjv = contractAjv(false);

function parametersValidator(validators: OperationValidators): ValidateFunction {
  validators.parameters ??= parametersAjv.compile(validators.schemas.parameters);
  return validators.parameters;
}

/** The validator of the body's media type; none for an operation without a body or an unlabelled call to an optional one; 415 for another type. */
function bodyValidator(validators: OperationValidators, req: Request): ValidateFunction | undefined {
  const { bodies, bodyOptional } = validators.schemas;
  if (bodies.length === 0) return undefined;
  const choice = chooseMediaType(req.headers['content-type'], bodies.map((body) => body.mediaType), bodyOptional);
  if (choice.kind === 'unsupported') throw new ServiceError('unsupported_media_type', unsupportedMediaType(req.get('content-type') ?? ''));
  if (choice.kind === 'no-body') return undefined;
  return compiledBodyValidator(validators, choice.mediaType);
}

function compiledBodyValidator(validators: OperationValidators, mediaType: string): ValidateFunction {
  let validate = validators.bodies.get(mediaType);
  if (!validate) {
    validate = bodyAjv.compile(validators.schemas.bodies.find((body) => body.mediaType === mediaType)!.schema);
    validators.bodies.set(mediaType, validate);
  }
  return validate;
}

/**
 * Built when the server's modules load, so that a parameter shape the validator cannot take stops the
 * start; compiled at first use (validator.test.ts compiles them all, so a schema Ajv refuses fails there).
 */
const validators = new Map<OperationId, OperationValidators>(operations.map((operation) => [operation.operationId, { schemas: requestSchemas(operation), bodies: new Map() }]));

/** Compiles every operation's validators now, parameters and each body media type; how many. */
export function compileEveryValidator(): number {
  let compiled = 0;
  for (const forOperation of validators.values()) {
    parametersValidator(forOperation);
    for (const body of forOperation.schemas.bodies) compiledBodyValidator(forOperation, body.mediaType);
    compiled += 1 + forOperation.schemas.bodies.length;
  }
  return compiled;
}

export function contractValidator(): GatewayStep {
  return (req, res) => {
    canonicalQuery(req);
    const call = callOf(res);
    const operation = call.operation!;
    const query = req.query as Record<string, unknown>;
    // The typed values and defaults are what the operation reads as `req.query`.
    Object.defineProperty(req, 'query', { writable: true, value: query });
    call.unknownParameters = unknownParameters(operation, query);
    if (call.pathParameters === null) throw invalidParameters([...call.unknownParameters, malformedPathEncoding(req.path)]);

    const forOperation = validators.get(operation.operationId)!;
    const validateBody = bodyValidator(forOperation, req);
    readBracketNames(query);
    const validateParameters = parametersValidator(forOperation);
    // Both run, filling their defaults, and every problem of both is reported.
    const data = { query, headers: req.headers, params: call.pathParameters ?? {}, cookies: undefined, body: req.body as unknown };
    validateParameters(data);
    validateBody?.(data);
    const errors = [...(validateParameters.errors ?? []), ...(validateBody?.errors ?? [])];
    if (errors.length > 0) throw invalidParameters([...call.unknownParameters, ...errors.map(itemOf).map(describe)]);
    if (call.unknownParameters.length > 0) throw invalidParameters(call.unknownParameters);
  };
}
