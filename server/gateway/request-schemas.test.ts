/**
 * The request validator's schemas are built as express-openapi-validator built them, and a
 * parameter shape it does not take stops the start rather than being checked loosely.
 */
import { describe, expect, it } from 'vitest';
import { operations, type OperationRow } from '../../generated/operations.ts';
import { requestSchemas } from './request-schemas.ts';

const operation = (id: string): OperationRow => operations.find((row) => row.operationId === id)!;
type Schema = Record<string, any>;

describe('requestSchemas', () => {
  it('takes a parameter schema behind a $ref without its siblings, as the old validator did (no default interval)', () => {
    const query = (requestSchemas(operation('getPriceHistory')).parameters.properties as Schema).query;
    expect(query.properties.interval.default).toBeUndefined();
    expect(query.properties.interval.enum).toContain('1d');
    expect(query.required).toEqual(['symbol']);
  });

  it('names header parameters in lower case and requires the body when its schema has a required list', () => {
    const { parameters, bodies, bodyOptional } = requestSchemas(operation('crawlWebsite'));
    expect(Object.keys((parameters.properties as Schema).headers.properties)).toEqual(['cache-control', 'idempotency-key']);
    expect(bodies.map((body) => [body.mediaType, body.schema.required])).toEqual([['application/json', ['body']]]);
    expect(bodyOptional).toBe(false);
    expect(requestSchemas(operation('updateMonitor')).bodyOptional).toBe(true);
  });

  it('refuses a parameter shape it does not decode (an array), naming it', () => {
    const document = structuredClone({ paths: { '/x': { get: { parameters: [{ name: 'tags', in: 'query', schema: { type: 'array', items: { type: 'string' } } }] } } }, components: {} });
    const row = { ...operation('listJobs'), operationId: 'listJobs', path: '/x', method: 'GET' } as OperationRow;
    expect(() => requestSchemas(row, document)).toThrow('listJobs: the request validator takes scalar parameters in their default style only, not query tags');
  });
});
