/** Keys and limits: 401 by cause, 403 by scope, 429 with its fields, and logs that never show a key. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test-support/test-server.ts';

describe('access', () => {
  let server: TestServer;
  beforeAll(async () => (server = await startTestServer({ rateLimit: { requests: 3, windowSeconds: 60 } })));
  afterAll(() => server.close());

  it.each([
    { name: 'missing', key: () => undefined, code: 'api_key_missing' },
    { name: 'unknown', key: () => 'wsdq_live_notAKeyThisServiceIssued0000000', code: 'api_key_invalid' },
    {
      name: 'expired',
      key: async () => (await server.key({ expiresAt: new Date(server.clock.now() + 1000).toISOString() })).secret,
      prepare: () => server.clock.advance(1000),
      code: 'api_key_expired',
    },
    {
      name: 'revoked',
      key: async () => {
        const { secret, id } = await server.key();
        await server.stores.keys.revoke(id);
        return secret;
      },
      code: 'api_key_revoked',
    },
  ])('answers 401 $code for a $name key', async ({ key, prepare, code }) => {
    const secret = await key();
    prepare?.();
    const answer = await server.call('/web/jobs', { key: secret });
    expect(answer.status).toBe(401);
    expect(answer.body.error.code).toBe(code);
    expect([answer.body.credits_remaining, answer.headers.get('x-credits-remaining')]).toEqual([null, 'unknown']);
  });

  it('answers 403 scope_denied when the key lacks the platform', async () => {
    const { secret } = await server.key({ scopes: ['web', 'finance'] });
    const answer = await server.call('/socialnet/events?url=https://social.example/g', { key: secret });
    expect(answer.status).toBe(403);
    expect(answer.body.error).toMatchObject({ code: 'scope_denied', message: 'This key has the scopes web, finance; socialnet/events needs the scope socialnet.' });
  });

  it('answers 429 over the key rate limit, with Retry-After and the RateLimit fields, and resets with the window', async () => {
    const { secret, id } = await server.key({ credits: 100 });
    const statuses = [];
    for (let call = 0; call < 4; call++) statuses.push(await server.call('/web/jobs', { key: secret }));
    expect(statuses.map((answer) => answer.status)).toEqual([200, 200, 200, 429]);
    const limited = statuses[3]!;
    expect(limited.body.error.code).toBe('rate_limited');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.headers.get('ratelimit')).toMatch(/^"per-key";r=0;t=\d+$/);
    expect(limited.headers.get('ratelimit-policy')).toBe('"per-key";q=3;w=60');
    expect(await server.stores.ledger.balance(id)).toBe(100);

    server.clock.advance(60_000);
    expect((await server.call('/web/jobs', { key: secret })).status).toBe(200);
  });

  it('logs one line per request with its id, operation, status, credits and latency, never the key', async () => {
    const { secret } = await server.key({ credits: 10 });
    const before = server.logLines.length;
    const answer = await server.call('/web/scrape?url=https://example.com/logged', { key: secret });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const lines = server.logLines.slice(before);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ request_id: answer.body.request_id, operation: 'scrapeWebPage', status: 200, credits_used: 1, msg: 'request' });
    expect(typeof lines[0]!.latency_ms).toBe('number');
    // Its fields are fixed (it is written without the redaction pass): ids, numbers and the path without the query.
    expect(Object.keys(lines[0]!).sort()).toEqual(['cache', 'credits_used', 'key_id', 'latency_ms', 'level', 'method', 'msg', 'operation', 'path', 'request_id', 'service', 'status', 'time']);
    expect(lines[0]!.path).toBe('/v1/web/scrape');
    expect(JSON.stringify(server.logLines)).not.toContain(secret);
  });

  it('stores keys only as hashes', async () => {
    const { secret } = await server.key();
    const dump = JSON.stringify(await server.stores.database.all('SELECT * FROM api_keys'));
    expect(dump).not.toContain(secret);
    expect(dump).not.toContain(secret.slice(14));
  });

  it.each([
    { name: 'a body over 1 MiB', body: JSON.stringify({ url: 'https://example.com', goal: 'x'.repeat(1024 * 1024) }), type: 'application/json', code: 'body_too_large' },
    { name: 'malformed JSON', body: '{"url": ', type: 'application/json', code: 'invalid_json_body' },
    { name: 'a form body', body: 'url=https://example.com', type: 'application/x-www-form-urlencoded', code: 'unsupported_media_type' },
  ])('refuses $name with a 422 envelope and charges nothing', async ({ body, type, code }) => {
    const { secret, id } = await server.key({ credits: 10 });
    server.clock.advance(60_000);
    const response = await fetch(`${server.baseUrl}/web/crawl`, { method: 'POST', headers: { 'x-api-key': secret, 'content-type': type }, body });
    const answer = await response.json();
    expect([response.status, answer.error.code, answer.credits_used]).toEqual([422, code, 0]);
    expect(await server.stores.ledger.balance(id)).toBe(10);
  });
});
