/** Credits on real state: drawn per x-credit-cost only on success, atomically, agreeing with the ledger. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations } from '../../generated/operations.ts';
import { explodingProvider } from '../test-support/providers.ts';
import { startTestServer, type TestServer } from '../test-support/test-server.ts';

const costOf = (operationId: string) => operations.find((row) => row.operationId === operationId)!.creditCost;

describe('credits', () => {
  let server: TestServer;
  beforeAll(async () => (server = await startTestServer({ providers: { exploding: explodingProvider }, routes: { getMicroblogPost: 'exploding' } })));
  afterAll(() => server.close());

  const draws = [
    { operationId: 'scrapeWebPage', path: '/web/scrape?url=https://example.com/a' },
    { operationId: 'searchWeb', path: '/web/search?query=vector+databases' },
    { operationId: 'extractWebData', path: '/web/extract?url=https://example.com/p&prompt=plans' },
    { operationId: 'listSocialEvents', path: '/socialnet/events?url=https://social.example/g' },
    { operationId: 'listMonitors', path: '/web/monitors' },
  ];

  it.each(draws)('$operationId draws its x-credit-cost, and body, headers and ledger agree', async ({ operationId, path }) => {
    const { secret, id } = await server.key({ credits: 100 });
    const answer = await server.call(path, { key: secret });

    expect(answer.status).toBe(200);
    expect(answer.body.credits_used).toBe(costOf(operationId));
    expect(answer.body.credits_remaining).toBe(100 - costOf(operationId));
    expect(answer.headers.get('x-credits-used')).toBe(String(costOf(operationId)));
    expect(answer.headers.get('x-credits-remaining')).toBe(String(100 - costOf(operationId)));
    expect(await server.stores.ledger.balance(id)).toBe(100 - costOf(operationId));
    const entries = await server.stores.ledger.entries(id);
    expect(entries.reduce((sum, entry) => sum + entry.amount, 0)).toBe(await server.stores.ledger.balance(id));
    if (costOf(operationId) > 0) expect(entries.at(-1)).toMatchObject({ kind: 'charge', amount: -costOf(operationId), requestId: answer.body.request_id, operationId });
  });

  it('spends a balance exactly under 100 concurrent calls, never below zero', async () => {
    const { secret, id } = await server.key({ credits: 31 });
    const answers = await Promise.all(Array.from({ length: 100 }, (_, index) => server.call(`/web/search?query=q${index}`, { key: secret })));

    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(15);
    expect(statuses.filter((status) => status === 402)).toHaveLength(85);
    expect(await server.stores.ledger.balance(id)).toBe(1);
    expect((await server.stores.ledger.entries(id)).filter((entry) => entry.kind === 'charge')).toHaveLength(15);
    const remaining = answers.filter((answer) => answer.status === 200).map((answer) => answer.body.credits_remaining).sort((a, b) => a - b);
    expect(remaining).toEqual(Array.from({ length: 15 }, (_, index) => 1 + 2 * index));
  });

  it('a caller that hangs up stops its call: the provider\'s work is aborted and the charge refunded at once, not when the work would have ended', async () => {
    const { secret, id } = await server.key({ credits: 10 });
    const caller = new AbortController();
    // The sandbox waits `wait_for` for real (2 s); the caller gives up after 200 ms.
    const answer = fetch(`${server.baseUrl}/web/scrape?url=https://example.com/hang-up&wait_for=2000`, { headers: { 'x-api-key': secret }, signal: caller.signal });
    setTimeout(() => caller.abort(), 200);
    await expect(answer).rejects.toThrow();
    const hungUpAt = performance.now();
    await expect.poll(async () => (await server.stores.ledger.entries(id)).map((entry) => entry.kind), { timeout: 1500, interval: 25 }).toEqual(['top_up', 'charge', 'refund']);
    expect(performance.now() - hungUpAt).toBeLessThan(1500);
    expect(await server.stores.ledger.balance(id)).toBe(10);
  });

  it('answers 402 below the cost and charges nothing', async () => {
    const { secret, id } = await server.key({ credits: 4 });
    const answer = await server.call('/web/extract?url=https://example.com/p&prompt=plans', { key: secret });

    expect(answer.status).toBe(402);
    expect(answer.body.error.code).toBe('insufficient_credits');
    expect(answer.body.error.message).toBe('Insufficient credits: web/extract costs 5 credits, the balance is 4.');
    expect([answer.body.credits_used, answer.body.credits_remaining]).toEqual([0, 4]);
    expect((await server.stores.ledger.entries(id)).map((entry) => entry.kind)).toEqual(['top_up']);
  });

  it('answers 503 with no credits used when a live key has no provider', async () => {
    const { secret, id } = await server.key({ credits: 10, sandbox: false });
    const answer = await server.call('/finance/history?symbol=AAPL', { key: secret });

    expect(answer.status).toBe(503);
    expect(answer.body.error.code).toBe('provider_unavailable');
    expect(answer.headers.get('x-credits-used')).toBe('0');
    expect(await server.stores.ledger.balance(id)).toBe(10);
    expect(await server.stores.ledger.entries(id)).toHaveLength(1);
  });

  it('refunds the charge when the upstream fails (502), so the balance is unchanged', async () => {
    const { secret, id } = await server.key({ credits: 10 });
    const answer = await server.call('/web/scrape?url=https://fail-502.sandbox.test/page', { key: secret });

    expect(answer.status).toBe(502);
    expect(answer.body.error.code).toBe('upstream_failed');
    expect(answer.body.credits_remaining).toBe(10);
    expect(await server.stores.ledger.balance(id)).toBe(10);
    expect((await server.stores.ledger.entries(id)).map((entry) => [entry.kind, entry.amount])).toEqual([['top_up', 10], ['charge', -1], ['refund', 1]]);
  });

  it('answers an unexpected failure with a 500 envelope that leaks nothing, and refunds', async () => {
    const { secret, id } = await server.key({ credits: 10, sandbox: false });
    const answer = await server.call('/microblog/post?post_id=1858392017465397248', { key: secret });

    expect(answer.status).toBe(500);
    expect(answer.body.error.code).toBe('internal_error');
    expect(JSON.stringify(answer.body)).not.toMatch(/boom|secret|abc123|\.ts/);
    expect(answer.body.error.message).toContain(answer.body.request_id);
    expect(await server.stores.ledger.balance(id)).toBe(10);
  });

  it('keeps the ledger append-only', async () => {
    const { id } = await server.key({ credits: 5 });
    await expect(server.stores.database.run('UPDATE ledger SET amount = 999 WHERE key_id = ?', [id])).rejects.toThrow(/append-only/);
    await expect(server.stores.database.run('DELETE FROM ledger WHERE key_id = ?', [id])).rejects.toThrow(/append-only/);
  });
});
