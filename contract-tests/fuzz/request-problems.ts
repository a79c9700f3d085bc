/**
 * What is wrong with a request by the contract, checked with the project's Ajv validator
 * (contract.ts): the key, path ids, query parameters (declared, given once, valid as text is read
 * by its schema's type), the rules across them (lib/cross-parameter-rules.ts), headers, the
 * JSON body, and URLs the address policy refuses (server/outbound/address-policy.ts). The fuzzer's own judge of "valid" and "invalid", independent of the targets.
 */
import { crossParameterProblem } from '../../lib/cross-parameter-rules.ts';
import { describeErrors, validatorAt } from '../contract.ts';
import { checkedUrl } from '../../server/outbound/address-policy.ts';
import { fuzzOperation, type FuzzOperation, type FuzzParameter, type Schema } from './operations.ts';
import { CREATED_ID, type FuzzRequest } from './request.ts';

/** Query text as the JSON value its schema's type reads it as; text that is no such value stays text. */
export function typedQueryValue(text: string, schema: Schema): unknown {
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === 'integer' && /^-?(0|[1-9]\d*)$/.test(text)) return Number(text);
  if (type === 'number' && /^-?(0|[1-9]\d*)(\.\d+)?$/.test(text)) return Number(text);
  if (type === 'boolean' && (text === 'true' || text === 'false')) return text === 'true';
  return text;
}

function valueProblems(parameter: FuzzParameter, value: unknown, where: string): string[] {
  const validate = validatorAt(parameter.pointer);
  return validate(value) ? [] : describeErrors(validate.errors).map((error) => `${where} ${error.replace(/^\(root\) /, '')}`);
}

/** Every way `request` breaks the contract; empty for a valid request. */
export function requestProblems(request: FuzzRequest, nowMs = Date.now()): string[] {
  const operation = fuzzOperation(request.operationId);
  const problems: string[] = [];
  if (request.key !== 'valid') problems.push(`the API key is ${request.key}`);

  for (const parameter of operation.parameters.filter((candidate) => candidate.in === 'path')) {
    let value = request.pathParams[parameter.name];
    if (value !== undefined && request.rawPathParams?.includes(parameter.name)) {
      try {
        value = decodeURIComponent(value);
      } catch {
        problems.push(`path.${parameter.name} is not well-formed percent-encoded UTF-8`);
        continue;
      }
    }
    if (value === undefined) problems.push(`path.${parameter.name} is required`);
    else if (value !== CREATED_ID) problems.push(...valueProblems(parameter, value, `path.${parameter.name}`));
  }

  const declared = new Map(operation.parameters.filter((parameter) => parameter.in === 'query').map((parameter) => [parameter.name, parameter]));
  const given = new Map<string, string[]>();
  for (const [name, value] of request.query) given.set(name, [...(given.get(name) ?? []), value]);
  for (const [name, values] of given) {
    const parameter = declared.get(name);
    if (!parameter) problems.push(`query.${name} is not a parameter of ${operation.operationId}`);
    else if (values.length > 1) problems.push(`query.${name} is given ${values.length} times`);
    else problems.push(...valueProblems(parameter, typedQueryValue(values[0]!, parameter.schema), `query.${name}`));
  }
  for (const parameter of declared.values()) if (parameter.required && !given.has(parameter.name)) problems.push(`query.${parameter.name} is required`);
  if (problems.length === 0) {
    const crossProblem = crossParameterProblem(operation.operationId, Object.fromEntries([...given].map(([name, values]) => [name, values[0]])), nowMs);
    if (crossProblem) problems.push(crossProblem);
  }

  const headers = new Map(Object.entries(request.headers).map(([name, value]) => [name.toLowerCase(), value]));
  for (const parameter of operation.parameters.filter((candidate) => candidate.in === 'header')) {
    const value = headers.get(parameter.name.toLowerCase());
    if (value === undefined) {
      if (parameter.required) problems.push(`headers.${parameter.name} is required`);
    } else problems.push(...valueProblems(parameter, value, `headers.${parameter.name}`));
  }

  problems.push(...bodyProblems(request, operation.body));
  if (problems.length === 0) problems.push(...urlProblems(request, operation));
  return problems;
}

/** The prose of PageUrl and `urls`: a URL given to fetch or to call back is one the server's address policy lets through. */
function urlProblems(request: FuzzRequest, operation: FuzzOperation): string[] {
  const refused = (text: string): boolean => {
    try {
      checkedUrl(text, { allowPrivateNetwork: false });
      return false;
    } catch {
      return true;
    }
  };
  const problems: string[] = [];
  for (const [name, value] of request.query) {
    if (operation.parameters.find((parameter) => parameter.name === name)?.schema.format === 'uri' && refused(value)) problems.push(`query.${name} ${value} may not be fetched`);
  }
  const body = (request.rawBody === undefined ? request.body : undefined) as Record<string, unknown> | undefined;
  const fields = (operation.body?.schema.properties ?? {}) as Record<string, Schema>;
  for (const [name, value] of Object.entries(body ?? {})) {
    const format = fields[name]?.format ?? (fields[name]?.anyOf as Schema[] | undefined)?.find((branch) => branch.format)?.format;
    if (format === 'uri' && typeof value === 'string' && refused(value)) problems.push(`body.${name} ${value} may not be fetched`);
  }
  if (Array.isArray(body?.urls)) {
    const refusedUrls = (body.urls as string[]).filter(refused);
    if (body.ignore_invalid_urls === true ? refusedUrls.length === body.urls.length : refusedUrls.length > 0) problems.push(`body.urls holds URLs that may not be fetched: ${refusedUrls.join(', ')}`);
  }
  return problems;
}

/** `application/json`, in any case, with at most a UTF-8 charset (RFC 8259: JSON is UTF-8). */
export const JSON_MEDIA_TYPE = /^application\/json\s*(;\s*charset\s*=\s*"?utf-8"?\s*)?$/i;

function bodyProblems(request: FuzzRequest, body: ReturnType<typeof fuzzOperation>['body']): string[] {
  const sent = request.rawBody ?? (request.body === undefined ? undefined : JSON.stringify(request.body));
  if (sent === undefined) return body?.required ? ['the body is required'] : [];
  if (!body) return ['the operation takes no body'];
  if (!JSON_MEDIA_TYPE.test(request.contentType ?? 'application/json')) return [`the body's media type ${request.contentType} is not application/json`];
  let value: unknown;
  try {
    value = JSON.parse(sent);
  } catch (error) {
    return [`the body is not JSON: ${(error as Error).message}`];
  }
  const validate = validatorAt(body.pointer);
  return validate(value) ? [] : describeErrors(validate.errors).map((error) => `body${error.replace(/^\(root\)/, '')}`);
}
