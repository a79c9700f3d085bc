/**
 * Each check bites: a loopback proxy in front of the mock breaks one thing at a time (an undeclared
 * status, a 500, a wrong media type, a body or header off the contract, headers contradicting the
 * body, a charged error, an invalid request accepted, a valid one refused, a key ignored, a
 * deleted record still there, a created one missing, a balance that does not move) and the
 * fuzzer reports that check, with a `curl` line; the proxy breaking nothing passes. A failure is
 * shrunk to a minimal request.
 */
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OperationId } from '../../generated/operations.ts';
import type { CheckName } from './checks.ts';
import { fuzz } from './run.ts';
import { startMockTarget, type FuzzTarget } from './targets.ts';

interface Proxied {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

interface Answered {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** What a broken target does differently: to the request it forwards, or to the answer it gets back. */
interface Flaw {
  request?: (request: Proxied) => Proxied;
  answer?: (request: Proxied, answer: Answered) => Answered;
}

function forward(origin: string, request: Proxied): Promise<Answered> {
  const url = new URL(origin);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest({ host: url.hostname, port: url.port, method: request.method, path: request.path, headers: request.headers }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () => resolve({
        status: incoming.statusCode!,
        headers: Object.fromEntries(Object.entries(incoming.headers).filter(([name]) => !['content-length', 'connection', 'keep-alive', 'transfer-encoding'].includes(name)).map(([name, value]) => [name, String(value)])),
        body: Buffer.concat(chunks).toString('utf8'),
      }));
    });
    outgoing.on('error', reject);
    outgoing.end(request.body);
  });
}

async function brokenTarget(upstream: FuzzTarget, flaw: Flaw, traits: Partial<FuzzTarget> = {}): Promise<{ target: FuzzTarget; close(): Promise<void> }> {
  const server: Server = createServer(async (incoming, outgoing) => {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const { host: _host, ...headers } = incoming.headers;
    let request: Proxied = { method: incoming.method!, path: incoming.url!, headers, body: Buffer.concat(chunks) };
    request = flaw.request?.(request) ?? request;
    const answer = await forward(upstream.origin, request);
    const altered = flaw.answer?.(request, answer) ?? answer;
    outgoing.writeHead(altered.status, altered.headers).end(altered.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    target: { ...upstream, origin, ...traits },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

function json(answer: Answered, change: (body: Record<string, any>) => void): Answered {
  const body = JSON.parse(answer.body);
  change(body);
  return { ...answer, body: JSON.stringify(body) };
}

const ok = (answer: Answered) => answer.status >= 200 && answer.status < 300;

const cases: { flaw: string; check: CheckName; operations: OperationId[]; requests?: number; broken: Flaw; traits?: Partial<FuzzTarget> }[] = [
  { flaw: 'a 500 for a valid request', check: 'not_a_server_error', operations: ['listJobs'], broken: { answer: (_request, answer) => (ok(answer) ? { ...answer, status: 500 } : answer) } },
  { flaw: 'a status the operation does not declare (501)', check: 'status_code_conformance', operations: ['listJobs'], broken: { answer: (_request, answer) => (ok(answer) ? { ...answer, status: 501 } : answer) } },
  { flaw: 'an HTML media type', check: 'content_type_conformance', operations: ['getMicroblogPost'], broken: { answer: (_request, answer) => ({ ...answer, headers: { ...answer.headers, 'content-type': 'text/html' } }) } },
  { flaw: 'a body without its request_id', check: 'response_schema_conformance', operations: ['listJobs'], broken: { answer: (_request, answer) => json(answer, (body) => delete body.request_id) } },
  { flaw: 'an answer without X-Request-Id', check: 'response_headers_conformance', operations: ['listJobs'], broken: { answer: (_request, answer) => ({ ...answer, headers: Object.fromEntries(Object.entries(answer.headers).filter(([name]) => name !== 'x-request-id')) }) } },
  { flaw: 'X-Credits-Used saying 7 where the body says 1', check: 'header_body_agreement', operations: ['scrapeWebPage'], broken: { answer: (_request, answer) => (ok(answer) ? { ...answer, headers: { ...answer.headers, 'x-credits-used': '7' } } : answer) } },
  {
    flaw: 'an error that draws a credit', check: 'errors_uncharged', operations: ['getMicroblogPost'],
    broken: { answer: (_request, answer) => (answer.status >= 400 ? { ...json(answer, (body) => (body.credits_used = 1)), headers: { ...answer.headers, 'x-credits-used': '1' } } : answer) },
  },
  { flaw: 'a balance that does not move as calls draw credits', check: 'credits_accounting', operations: ['scrapeWebPage'], broken: {}, traits: { keepsAccounts: true } },
  { flaw: 'a 422 for a valid request', check: 'positive_data_acceptance', operations: ['listJobs'], broken: { answer: (_request, answer) => (ok(answer) ? { ...answer, status: 422 } : answer) } },
  {
    flaw: 'a 200 for an invalid request', check: 'negative_data_rejection', operations: ['getMicroblogPost'], requests: 40,
    broken: { request: (request) => ({ ...request, method: 'GET', path: '/v1/microblog/post?post_id=20', body: Buffer.alloc(0) }) },
  },
  {
    flaw: 'a request without a key served with one', check: 'ignored_auth', operations: ['listJobs'], requests: 60,
    broken: { request: (request) => ({ ...request, headers: { ...request.headers, 'x-api-key': 'the-proxy-adds-one' } }) },
  },
  { flaw: 'a deleted monitor still there (a mock that keeps no state, taken for one that does)', check: 'use_after_free', operations: ['deleteMonitor'], broken: {}, traits: { keepsState: true } },
  {
    flaw: 'a created monitor not found', check: 'ensure_resource_availability', operations: ['createMonitor'],
    broken: { answer: (request, answer) => (request.method === 'GET' && request.path.startsWith('/v1/web/monitors/') ? { ...answer, status: 404 } : answer) },
  },
];

describe('every check bites', () => {
  let mock: FuzzTarget;
  beforeAll(async () => (mock = await startMockTarget()));
  afterAll(() => mock.stop());

  for (const { flaw, check, operations, requests, broken, traits } of cases) {
    it(`reports ${check} for ${flaw}, with a curl line`, async () => {
      const proxy = await brokenTarget(mock, broken, traits);
      try {
        const report = await fuzz({ target: proxy.target, requests: requests ?? 12, seed: 1, operations });
        expect(report.failuresPerCheck[check]).toBeGreaterThan(0);
        const failure = report.failures.find((one) => one.failures.some((failed) => failed.check === check))!;
        expect(failure.curl).toMatch(new RegExp(`^curl -sS -i --path-as-is -g -X [A-Z]+ '${proxy.target.origin}/v1/`));
      } finally {
        await proxy.close();
      }
    });
  }

  it('reports nothing for a proxy that breaks nothing', async () => {
    const proxy = await brokenTarget(mock, {});
    try {
      const report = await fuzz({ target: proxy.target, requests: 60, seed: 1, operations: ['listJobs', 'scrapeWebPage', 'getMicroblogPost', 'deleteMonitor', 'createMonitor'] });
      expect(report.failures).toEqual([]);
    } finally {
      await proxy.close();
    }
  });

  it('shrinks a failure to a minimal request: a 500 above limit=50 is reported at limit=51, with nothing else', async () => {
    const proxy = await brokenTarget(mock, { answer: (request, answer) => (Number(new URL(request.path, 'http://x').searchParams.get('limit')) > 50 ? { ...answer, status: 500 } : answer) });
    try {
      const report = await fuzz({ target: proxy.target, requests: 60, seed: 3, operations: ['listJobs'] });
      const valid = report.failures.find((failure) => failure.intent === 'valid')!;
      expect([valid.request.query, valid.request.headers, valid.status]).toEqual([[['limit', '51']], {}, 500]);
      expect(valid.curl).toBe(`curl -sS -i --path-as-is -g -X GET '${proxy.target.origin}/v1/web/jobs?limit=51' -H "x-api-key: $FUZZ_API_KEY"`);
    } finally {
      await proxy.close();
    }
  });
});
