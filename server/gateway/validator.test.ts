/**
 * The contract validator checks formats as the contract defines them (ajv-formats' "full" mode):
 * its default "fast" approximations let through a URL with a NUL in its fragment, which the server
 * then stored and answered in a record that broke the contract (found by `npm run fuzz`). A path
 * it cannot decode is named in words, as the mock names it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations } from '../../generated/operations.ts';
import { startTestServer, type TestServer } from '../test-support/test-server.ts';
import { compileEveryValidator } from './validator.ts';
import { requestSchemas } from './request-schemas.ts';

describe('the request validators of every operation', () => {
  it('compile, parameters and each body media type, without waiting for a first call (a schema Ajv refuses would otherwise be a 500 there)', () => {
    const expected = operations.reduce((count, operation) => count + 1 + requestSchemas(operation).bodies.length, 0);
    expect(compileEveryValidator()).toBe(expected);
  });
});

describe('formats of the contract', () => {
  let server: TestServer;
  let key: { secret: string; id: string };
  beforeAll(async () => {
    server = await startTestServer();
    key = await server.key({ credits: 100 });
  });
  afterAll(() => server.close());

  const cases = [
    { name: 'a monitor url with a NUL in its fragment (not an RFC 3986 URI)', path: '/web/monitors', method: 'POST', body: { url: 'http://a.example#\u0000' }, names: 'body.url' },
    { name: 'a crawl url with a space in its path', path: '/web/crawl', method: 'POST', body: { url: 'https://example.com/a b' }, names: 'body.url' },
    { name: 'a scrape url with a right-to-left override', path: `/web/scrape?url=${encodeURIComponent('https://example.com/\u202Eevil')}`, method: 'GET', body: undefined, names: 'query.url' },
    { name: 'a price history starting on 30 February', path: '/finance/history?symbol=AAPL&start=2024-02-30', method: 'GET', body: undefined, names: 'query.start' },
  ];
  it('refuses a path with malformed percent-encoding with 422 naming the path (it said "v1.web.jobs.%FF malformed uri\'")', async () => {
    for (const path of ['/web/jobs/%FF', '/web/monitors/%']) {
      const answer = await server.call(path, { key: key.secret });
      expect([answer.status, answer.body.error.code, answer.body.error.message], path).toEqual([422, 'invalid_parameters', `Invalid parameters: the path /v1${path} is not well-formed percent-encoded UTF-8.`]);
    }
  });

  for (const { name, path, method, body, names } of cases) {
    it(`refuses ${name} with 422 invalid_parameters naming ${names}, uncharged`, async () => {
      const answer = await server.call(path, { method, key: key.secret, ...(body ? { body } : {}) });
      expect(answer.status).toBe(422);
      expect(answer.body.error.code).toBe('invalid_parameters');
      expect(answer.body.error.message).toContain(names);
      expect(answer.body.credits_used).toBe(0);
      expect(await server.stores.ledger.balance(key.id)).toBe(100);
    });
  }
});
