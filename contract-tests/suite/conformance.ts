/**
 * Checks one answer against the bundled contract with the suite's own Ajv validator: the status is
 * declared for the operation, the content type is JSON, the body validates against that status's
 * schema, every declared header is present and valid, and headers agree with the body.
 */
import { contract, describeErrors, resolve, responseSchemaPointer, validatorAt, type ContractOperation } from '../contract.ts';

type Json = Record<string, unknown>;

export interface ObservedAnswer {
  status: number;
  headers: Headers;
  contentType: string;
  body: unknown;
}

const ENVELOPE_HEADERS = ['X-Request-Id', 'X-Credits-Used', 'X-Credits-Remaining', 'X-Cache'];

function escape(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Header name → pointer of its schema, for a declared response (following `$ref`s). */
function declaredHeaders(operation: ContractOperation, status: string): Map<string, { pointer: string; required: boolean }> {
  const response = (operation.object.responses as Json)[status] as Json;
  const responsePointer = typeof response.$ref === 'string'
    ? response.$ref.slice(1)
    : `/paths/${escape(operation.path)}/${operation.method}/responses/${status}`;
  const headers = (resolve(response).headers ?? {}) as Record<string, Json>;
  return new Map(Object.entries(headers).map(([name, header]) => {
    const pointer = typeof header.$ref === 'string' ? `${header.$ref.slice(1)}/schema` : `${responsePointer}/headers/${escape(name)}/schema`;
    return [name, { pointer, required: Boolean(resolve(header).required) }];
  }));
}

/** The envelope headers of any answer, for paths that match no operation. */
function envelopeHeaderSchemas(): Map<string, { pointer: string; required: boolean }> {
  const pointers: Record<string, string> = { 'X-Request-Id': 'XRequestId', 'X-Credits-Used': 'XCreditsUsed', 'X-Credits-Remaining': 'XCreditsRemaining', 'X-Cache': 'XCache' };
  return new Map(ENVELOPE_HEADERS.map((name) => [name, { pointer: `/components/headers/${pointers[name]}/schema`, required: true }]));
}

/** Header text as the JSON value its schema describes (headers carry integers as text). */
function headerValue(text: string, pointer: string): unknown {
  const schema = resolve(pointerNode(pointer));
  if ((schema.type === 'integer' || schema.type === 'number') && /^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  return text;
}

function pointerNode(pointer: string): Json {
  return pointer.slice(1).split('/').map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~')).reduce<unknown>((node, key) => (node as Json)[key], contract) as Json;
}

/** Every way the answer departs from the contract; empty when it conforms. */
export function contractMismatches(operation: ContractOperation | null, answer: ObservedAnswer): string[] {
  const mismatches: string[] = [];
  const status = String(answer.status);
  if (!/^application\/json\b/.test(answer.contentType)) mismatches.push(`content type is "${answer.contentType}", not application/json`);

  let schemaPointer: string | undefined;
  let headers: Map<string, { pointer: string; required: boolean }>;
  if (operation) {
    if (!(operation.object.responses as Json)[status]) {
      return [...mismatches, `status ${status} is not declared for ${operation.operationId}`];
    }
    schemaPointer = responseSchemaPointer(operation, status);
    headers = declaredHeaders(operation, status);
  } else {
    schemaPointer = '/components/schemas/ErrorEnvelope';
    headers = envelopeHeaderSchemas();
  }

  if (!schemaPointer) mismatches.push(`no application/json schema declared for ${status}`);
  else {
    const validate = validatorAt(schemaPointer);
    if (!validate(answer.body)) mismatches.push(...describeErrors(validate.errors).map((error) => `body ${error}`));
  }

  for (const [name, { pointer, required }] of headers) {
    const text = answer.headers.get(name);
    if (text === null) {
      if (required) mismatches.push(`header ${name} is missing`);
      continue;
    }
    const validate = validatorAt(pointer);
    if (!validate(headerValue(text, pointer))) mismatches.push(...describeErrors(validate.errors).map((error) => `header ${name} "${text}" ${error.replace(/^\(root\) /, '')}`));
  }

  const body = answer.body as Json;
  if (body && typeof body === 'object') {
    const expected: Record<string, string> = {
      'X-Request-Id': String(body.request_id),
      'X-Credits-Used': String(body.credits_used),
      'X-Credits-Remaining': body.credits_remaining === null ? 'unknown' : String(body.credits_remaining),
      'X-Cache': body.cached ? 'HIT' : answer.headers.get('X-Cache') === 'HIT' ? 'MISS or BYPASS' : String(answer.headers.get('X-Cache')),
    };
    for (const [name, value] of Object.entries(expected)) {
      const actual = answer.headers.get(name);
      if (actual !== null && actual !== value) mismatches.push(`header ${name} "${actual}" disagrees with the body (${value})`);
    }
  }
  return mismatches;
}
