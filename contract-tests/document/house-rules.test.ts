/**
 * House rules that Redocly's assertions cannot express, checked on the bundle: the headers every
 * operation accepts and declares, and the agreement between an operation's tag, scope, path,
 * credit cost and its success schema.
 */
import { describe, expect, it } from 'vitest';
import { contract, contractOperations, resolve } from '../contract.ts';

type Json = Record<string, unknown>;

const operations = contractOperations();

function headerParameters(operation: Json): Map<string, Json> {
  const parameters = ((operation.parameters as Json[]) ?? []).map((parameter) => resolve(parameter));
  return new Map(parameters.filter((parameter) => parameter.in === 'header').map((parameter) => [parameter.name as string, parameter]));
}

function responseHeaders(operation: Json, status: string): string[] {
  return Object.keys((resolve((operation.responses as Json)[status]).headers ?? {}) as Json);
}

/** The `const` that the success schema's second `allOf` part gives a property. */
function successConst(operation: Json, property: string): unknown {
  const content = resolve((operation.responses as Json)['200']).content as Record<string, Json>;
  const schema = resolve(content['application/json']!.schema);
  const narrowing = (schema.allOf as Json[]).map((part) => resolve(part)).find((part) => !('required' in part));
  return ((narrowing?.properties as Record<string, Json>)[property] as Json).const;
}

describe('house rules of every operation', () => {
  it.each(operations)('$operationId accepts optional Cache-Control and Idempotency-Key headers', ({ object }) => {
    const headers = headerParameters(object);
    expect(headers.get('Cache-Control')?.required).toBe(false);
    expect(headers.get('Idempotency-Key')?.required).toBe(false);
  });

  it.each(operations)('$operationId declares Idempotent-Replayed on 200 and the rate-limit fields on 429', ({ object }) => {
    expect(responseHeaders(object, '200')).toContain('Idempotent-Replayed');
    expect(responseHeaders(object, '429')).toEqual(expect.arrayContaining(['Retry-After', 'RateLimit', 'RateLimit-Policy']));
  });

  it.each(operations)('$operationId: tag, scope, platform and endpoint agree with its path', ({ object, path }) => {
    const platform = path.split('/')[1];
    expect(object.tags).toEqual([platform]);
    expect(object.security).toEqual([{ ApiKeyAuth: [platform] }]);
    expect(successConst(object, 'platform')).toBe(platform);
    expect(successConst(object, 'endpoint')).toBe(path);
  });

  it.each(operations)('$operationId states its credit cost in its description', ({ object }) => {
    const cost = object['x-credit-cost'] as number;
    const description = (object.description as string).replace(/\s+/g, ' ');
    expect(description).toContain(`Costs **${cost} credit${cost === 1 ? '' : 's'}**`);
  });

  it('has unique camelCase operationIds', () => {
    const ids = operations.map((operation) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z]+(?:[A-Z][a-z]+)+$/);
  });

  it.each(operations.filter(({ object }) => object['x-cache']))('$operationId describes its cache in x-cache', ({ object }) => {
    const cache = object['x-cache'] as Json;
    if (cache.mode === 'window') expect(cache.ttl_seconds).toBeGreaterThan(0);
    else {
      expect(cache.mode).toBe('max_age');
      const names = ((object.parameters as Json[]) ?? []).map((parameter) => resolve(parameter).name);
      expect(names).toContain(cache.parameter);
    }
  });
});

describe('the error catalog', () => {
  const schemas = (contract.components as Json).schemas as Record<string, Json>;
  const catalog = schemas.ErrorCode!['x-error-catalog'] as Record<string, { status: number; type: string }>;

  it('gives every error code a declared status and a known type, and names no other code', () => {
    const statuses = ((schemas.ErrorDetail!.properties as Record<string, Json>).status!.enum) as number[];
    expect(Object.keys(catalog).sort()).toEqual([...(schemas.ErrorCode!.enum as string[])].sort());
    for (const [code, { status, type }] of Object.entries(catalog)) {
      expect(statuses, code).toContain(status);
      expect(schemas.ErrorType!.enum, code).toContain(type);
    }
  });

  it('agrees with the table in the description of ErrorCode', () => {
    const rows = [...(schemas.ErrorCode!.description as string).matchAll(/^\| `(\w+)` \| (\d{3}) \| (\w+) \|/gm)];
    expect(rows.length).toBe(Object.keys(catalog).length);
    for (const [, code, status, type] of rows) expect(catalog[code!]).toEqual({ status: Number(status), type });
  });
});
