/** Bodies the JSON parser cannot read for their encoding or charset, or that their Content-Encoding does not decode, are refused uncharged. */
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorCatalog } from '../../generated/errors.ts';
import { undecodableBody, unsupportedBodyEncoding } from '../../lib/error-messages.ts';
import { startTestServer, type TestServer } from '../test-support/test-server.ts';

describe('a body in an encoding or charset the service does not read', () => {
  let server: TestServer;
  let key: { secret: string; id: string };
  beforeAll(async () => {
    server = await startTestServer();
    key = await server.key({ credits: 100 });
  });
  afterAll(() => server.close());

  const cases: { name: string; headers: Record<string, string>; code: string; message: string }[] = [
    { name: 'Content-Encoding: x-unknown', headers: { 'content-type': 'application/json', 'content-encoding': 'x-unknown' }, code: 'unsupported_media_type', message: unsupportedBodyEncoding('unsupported content encoding "x-unknown"') },
    { name: 'charset=latin1', headers: { 'content-type': 'application/json; charset=latin1' }, code: 'unsupported_media_type', message: unsupportedBodyEncoding('unsupported charset "LATIN1"') },
    // Regression: a body that its Content-Encoding does not decode was answered 500 internal_error.
    { name: 'Content-Encoding: br on a body that is not Brotli', headers: { 'content-type': 'application/json', 'content-encoding': 'br' }, code: 'malformed_request', message: undecodableBody('br', 'Decompression failed') },
    { name: 'Content-Encoding: gzip on a body that is not gzip', headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, code: 'malformed_request', message: undecodableBody('gzip', 'incorrect header check') },
  ];
  it.each(cases)('is 422 $code for $name, naming it, uncharged', async ({ headers, code, message }) => {
    const response = await fetch(`${server.baseUrl}/web/crawl`, { method: 'POST', headers: { 'x-api-key': key.secret, ...headers }, body: JSON.stringify({ url: 'https://example.com/' }) });
    const body = (await response.json()) as { error: { code: string; message: string }; credits_used: number };
    expect([response.status, body.error.code, body.error.message]).toEqual([errorCatalog[code as keyof typeof errorCatalog].status, code, message]);
    expect(body.credits_used).toBe(0);
    expect(await server.stores.ledger.balance(key.id)).toBe(100);
  });

  it('reads a body its Content-Encoding does decode: a gzip JSON body is accepted', async () => {
    const response = await fetch(`${server.baseUrl}/web/crawl`, { method: 'POST', headers: { 'x-api-key': key.secret, 'content-type': 'application/json', 'content-encoding': 'gzip' }, body: gzipSync(JSON.stringify({ url: 'https://example.com/' })) });
    expect(response.status).toBe(200);
  });
});
