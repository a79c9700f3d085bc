/**
 * The URLs a call names are checked against the address policy for every key, before anything is
 * charged: a sandbox key's scrape, map, extract or social events of a non-public address once
 * answered the sandbox's made-up page and drew its credits (found by `npm run fuzz`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test-support/test-server.ts';

describe('the address policy on a sandbox key', () => {
  let server: TestServer;
  beforeAll(async () => (server = await startTestServer()));
  afterAll(() => server.close());

  const cases = [
    { path: '/web/scrape?url=', url: 'http://127.0.0.1/admin', code: 'url_not_allowed' },
    { path: '/web/map?url=', url: 'http://10.0.0.1/', code: 'url_not_allowed' },
    { path: '/web/extract?prompt=x&url=', url: 'http://169.254.169.254/latest/meta-data/', code: 'url_not_allowed' },
    { path: '/socialnet/events?url=', url: 'http://localhost:8080/group', code: 'url_not_allowed' },
    { path: '/web/scrape?url=', url: 'http://[::1]/', code: 'url_not_allowed' },
    { path: '/web/map?url=', url: 'https://a.0/', code: 'invalid_parameters' },
  ];
  for (const { path, url, code } of cases) {
    it(`refuses ${path.split('?')[0]} of ${url} with 422 ${code} naming query.url, uncharged`, async () => {
      const { secret, id } = await server.key({ credits: 100 });
      const answer = await server.call(`${path}${encodeURIComponent(url)}`, { key: secret });
      expect([answer.status, answer.body.error?.code, answer.body.credits_used]).toEqual([422, code, 0]);
      expect(answer.body.error.message).toContain('query.url');
      expect(await server.stores.ledger.balance(id)).toBe(100);
    });
  }
});
