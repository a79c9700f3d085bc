/**
 * The server's request validator (validator.ts) against the one it replaced,
 * express-openapi-validator (validator-oracle.ts), as the oracle: over the fuzzer's valid requests
 * of every operation, the same requests made invalid by one mutation each, and the corners the
 * fuzzer does not write (names with brackets, reserved characters as is, media types, repeated
 * and unknown names), both must give the same verdict, the same message and, for a valid request,
 * the same typed query, path parameters and body (defaults included) to the operation.
 */
import express, { type ErrorRequestHandler, type Express, type RequestHandler } from 'express';
import fc from 'fast-check';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matchRoute } from '../../lib/contract-routes.ts';
import { invalidRequests } from '../../contract-tests/fuzz/mutations.ts';
import { fuzzOperations } from '../../contract-tests/fuzz/operations.ts';
import { bodyText, requestHeaders, requestTarget, type FuzzRequest } from '../../contract-tests/fuzz/request.ts';
import { validRequests } from '../../contract-tests/fuzz/valid-requests.ts';
import { callOf, type Call } from './call.ts';
import { parseJsonBody } from './parse-body.ts';
import { ServiceError } from './service-error.ts';
import { gateway, type GatewayStep } from './steps.ts';
import { contractValidator } from './validator.ts';
import { oracleErrors, oracleValidator } from '../test-support/validator-oracle.ts';

const SAMPLES_PER_OPERATION = 40;

/** The gateway's first steps: the call, its operation and path parameters (a path the contract has not is answered as such). */
const routeStep: GatewayStep = (req, res) => {
  const call: Call = { requestId: 'req', startedAt: 0, charged: 0, creditsRemaining: null, cached: false, xCache: 'BYPASS', unknownParameters: [] };
  res.locals.call = call;
  const route = matchRoute(req.method, req.path.slice('/v1'.length));
  if (route.kind !== 'operation') {
    res.json({ route: route.kind });
    return 'answered';
  }
  call.operation = route.operation;
  call.pathParameters = route.params;
};

/** What the operation would read: the typed query, the path parameters and the body. */
const answerWhatTheOperationReads: RequestHandler = (req, res) => {
  const openapi = (req as { openapi?: { pathParams: unknown } }).openapi;
  res.json({ query: req.query, params: openapi?.pathParams ?? callOf(res).pathParameters, body: req.body });
};

const answerTheError: ErrorRequestHandler = (error, _req, res, _next) => {
  res.json(error instanceof ServiceError ? { code: error.code, message: error.message } : { unexpected: String(error) });
};

function appWithOurValidator(): Express {
  const app = express();
  app.use(gateway([routeStep, parseJsonBody(), contractValidator()], answerWhatTheOperationReads));
  app.use(answerTheError);
  return app;
}

function appWithTheOracle(): Express {
  const app = express();
  app.use(gateway([routeStep, parseJsonBody()], (_req, _res, next) => next()));
  app.use(oracleValidator(), answerWhatTheOperationReads);
  app.use(oracleErrors(), answerTheError);
  return app;
}

interface Sent { target: string; method: string; headers: Record<string, string>; body?: string }

function send(port: number, sent: Sent): Promise<unknown> {
  return new Promise((resolve) => {
    const outgoing = httpRequest({ host: '127.0.0.1', port, method: sent.method, path: sent.target, headers: sent.headers }, (answer) => {
      let text = '';
      answer.setEncoding('utf8');
      answer.on('data', (chunk: string) => (text += chunk));
      // The text as sent, so that the order of keys in the typed query and body (the idempotency fingerprint reads it) is compared too.
      answer.on('end', () => resolve({ status: answer.statusCode, body: text }));
    });
    // Node itself refuses some (a request line over its header limit): the same for both.
    outgoing.on('error', (error: NodeJS.ErrnoException) => resolve({ refusedByNode: error.code }));
    outgoing.end(sent.body);
  });
}

function fromFuzz(request: FuzzRequest): Sent {
  return { target: requestTarget(request), method: request.method, headers: requestHeaders(request, 'key', 'wrong'), body: bodyText(request) };
}

const JSON_TYPE = { 'content-type': 'application/json' };
/** Corners the fuzzer does not write, each sent as is. */
const CORNERS: Sent[] = [
  ...['url[a]=https%3A%2F%2Fa.example', 'url[]=https%3A%2F%2Fa.example', 'url=https%3A%2F%2Fa.example&url[0]=x', 'limit[]=5&url=https%3A%2F%2Fa.example', 'a[b][c]=1&url=https%3A%2F%2Fa.example']
    .map((query) => ({ target: `/v1/web/map?${query}`, method: 'GET', headers: {} })),
  ...['url=https://a.example/?x=1', 'url=https://a.example/a+b&limit=+5', "url=https%3A%2F%2Fa.example&search=it's", 'url=https%3A%2F%2Fa.example&search=a=b', 'url=https%3A%2F%2Fa.example&limit=5&limit=6', 'URL=https%3A%2F%2Fa.example', '%75rl=https%3A%2F%2Fa.example', 'url=', 'url=https%3A%2F%2Fa.example&fresh=TRUE&limit=1e2&include_subdomains=1']
    .map((query) => ({ target: `/v1/web/map?${query}`, method: 'GET', headers: {} })),
  { target: '/v1/finance/history?symbol=AAPL&interval=2d&start=2024-02-30&end=x', method: 'GET', headers: {} },
  { target: '/v1/socialnet/events?url=https%3A%2F%2Fsocial.example%2Fgroups%2Fberlin-hikers', method: 'GET', headers: { 'cache-control': 'x'.repeat(300), 'idempotency-key': ' ' } },
  { target: '/v1/web/jobs/%FF?nope=1', method: 'GET', headers: {} },
  { target: `/v1/web/jobs/${'x'.repeat(65)}?limit=0`, method: 'GET', headers: {} },
  ...[undefined, 'application/json', 'application/json; charset=UTF-8', 'APPLICATION/JSON;foo=bar', 'application/merge-patch+json', 'text/plain', 'application/x-www-form-urlencoded', '']
    .flatMap((type) => ['/v1/web/monitors/mon_1', '/v1/web/crawl'].map((path): Sent => ({
      target: path, method: path.endsWith('crawl') ? 'POST' : 'PATCH', headers: type === undefined ? {} : { 'content-type': type }, body: type === undefined ? undefined : '{"url":"https://a.example","limit":"10"}',
    }))),
  { target: '/v1/web/monitors/mon_1', method: 'PATCH', headers: JSON_TYPE, body: '{}' },
  { target: '/v1/web/monitors', method: 'POST', headers: JSON_TYPE, body: '{"url":"https://a.example","extra":1,"interval_minutes":"5"}' },
  { target: '/v1/web/crawl?x=1', method: 'POST', headers: JSON_TYPE, body: '[]' },
];

describe('the request validator against express-openapi-validator', () => {
  let servers: { close(): void }[] = [];
  let ports: { ours: number; oracle: number };
  beforeAll(async () => {
    const listen = (app: Express) => new Promise<number>((resolve) => {
      const server = app.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
      servers.push(server);
    });
    ports = { ours: await listen(appWithOurValidator()), oracle: await listen(appWithTheOracle()) };
  });
  afterAll(() => {
    for (const server of servers) server.close();
    servers = [];
  });

  async function expectSameAnswers(requests: Sent[]): Promise<void> {
    for (const sent of requests) {
      const [ours, oracle] = await Promise.all([send(ports.ours, sent), send(ports.oracle, sent)]);
      expect(ours, `${sent.method} ${sent.target} ${JSON.stringify(sent.headers)} ${sent.body ?? ''}`).toEqual(oracle);
    }
  }

  for (const operation of fuzzOperations) {
    it(`${operation.operationId}: same answers to valid requests and to requests with one mutation`, async () => {
      const valid = fc.sample(validRequests(operation), { numRuns: SAMPLES_PER_OPERATION, seed: 14 });
      const invalid = fc.sample(invalidRequests(operation, []), { numRuns: SAMPLES_PER_OPERATION * 2, seed: 14 });
      await expectSameAnswers([...valid, ...invalid].map(fromFuzz));
    });
  }

  it('same answers in the corners: bracketed and repeated names, reserved characters as is, media types, malformed paths', async () => {
    await expectSameAnswers(CORNERS);
  });
});
