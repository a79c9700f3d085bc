/**
 * `npm run proxy`: between a client and a real upstream on loopback, every call passes through
 * byte for byte, and each departure from the contract is printed on one line with its request id
 * and counted in the summary; the API key is never printed.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractPath } from '../../lib/contract-document.ts';
import { createMockServer } from '../../mock/create-mock-server.ts';
import { createPrismEngine } from '../../mock/prism-engine.ts';
import { startTamperingServer, type Tamper, type TamperingServer } from '../../server/test-support/tampering-server.ts';
import { startTestServer, type TestServer } from '../../server/test-support/test-server.ts';
import { projectRoot } from '../paths.ts';
import { createRequestChecker, type RequestChecker } from './check-request.ts';
import { createValidationProxy, SUMMARY_PATH, type ValidationProxy } from './create-proxy.ts';

interface RawAnswer {
  status: number;
  rawHeaders: string[];
  body: Buffer;
}

/** A call with node:http, so the answer's header spelling and body bytes are seen as sent. */
function rawCall(url: string, init: { method?: string; headers?: string[]; body?: string } = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    // Headers as an array keep their spelling; Node then adds no Host of its own.
    const headers = ['Host', new URL(url).host, ...(init.headers ?? [])];
    const outgoing = request(url, { method: init.method ?? 'GET', headers }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () => resolve({ status: answer.statusCode!, rawHeaders: answer.rawHeaders, body: Buffer.concat(chunks) }));
    });
    outgoing.once('error', reject);
    outgoing.end(init.body);
  });
}

/** Raw headers without those of one connection (each hop has its own). */
function endToEnd(rawHeaders: string[]): string[][] {
  const pairs: string[][] = [];
  for (let index = 0; index < rawHeaders.length; index += 2) pairs.push([rawHeaders[index]!, rawHeaders[index + 1]!]);
  return pairs.filter(([name]) => !/^(connection|keep-alive|date|transfer-encoding|host)$/i.test(name!));
}

async function listening(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function closed(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

interface RunningProxy extends ValidationProxy {
  origin: string;
  lines: string[];
}

let checkRequest: RequestChecker;
const running: Server[] = [];

async function startProxy(upstream: string): Promise<RunningProxy> {
  const lines: string[] = [];
  const proxy = createValidationProxy({ upstream: new URL(upstream), checkRequest, log: (line) => void lines.push(line) });
  running.push(proxy.server);
  return { ...proxy, origin: await listening(proxy.server), lines };
}

/** The proxy logs after it has answered: wait for the summary to count the call. */
async function counted(proxy: RunningProxy, requests: number): Promise<void> {
  for (let attempt = 0; attempt < 100 && proxy.summary.toJSON().requests < requests; attempt++) await new Promise((resolve) => setTimeout(resolve, 10));
}

let server: TestServer;
let key: string;

beforeAll(async () => {
  [checkRequest, server] = await Promise.all([createRequestChecker(), startTestServer()]);
  key = (await server.key({ credits: 10_000 })).secret;
});

afterAll(async () => {
  await Promise.all(running.map(closed));
  await server?.close();
});

describe('the validation proxy passes everything through unchanged', () => {
  it('the request reaches the upstream and the answer reaches the client byte for byte (header spelling, odd JSON spacing, UTF-8)', async () => {
    const seen: { method?: string; url?: string; rawHeaders?: string[]; body?: Buffer } = {};
    const oddBody = Buffer.from('{"success" :true,  "note":"caf\u00e9 \u2713",\n"n":1.50}');
    const upstream = createServer(async (incoming, answer) => {
      const chunks: Buffer[] = [];
      for await (const chunk of incoming) chunks.push(chunk as Buffer);
      Object.assign(seen, { method: incoming.method, url: incoming.url, rawHeaders: incoming.rawHeaders, body: Buffer.concat(chunks) });
      answer.writeHead(201, 'Made Up', ['X-Request-Id', 'req_odd', 'x-MiXeD-Case', 'kept', 'Set-Cookie', 'a=1', 'Set-Cookie', 'b=2', 'Content-Type', 'application/json', 'Content-Length', String(oddBody.length)]);
      answer.end(oddBody);
    });
    running.push(upstream);
    const proxy = await startProxy(`${await listening(upstream)}/v1`);
    const sentBody = '{"url": "https://example.com/",  "limit": 2}';
    const sentHeaders = ['X-Api-Key', 'wsdq_test_secret-of-the-client', 'Content-Type', 'application/json', 'Idempotency-Key', 'retry-1', 'Content-Length', String(Buffer.byteLength(sentBody))];

    const answer = await rawCall(`${proxy.origin}/v1/web/crawl?b=2&a=1&a=3`, { method: 'POST', headers: sentHeaders, body: sentBody });

    expect(seen.method).toBe('POST');
    expect(seen.url).toBe('/v1/web/crawl?b=2&a=1&a=3');
    expect(endToEnd(seen.rawHeaders!)).toEqual(endToEnd(sentHeaders));
    expect(seen.body!.toString()).toBe(sentBody);
    expect(answer.status).toBe(201);
    expect(endToEnd(answer.rawHeaders)).toEqual([['X-Request-Id', 'req_odd'], ['x-MiXeD-Case', 'kept'], ['Set-Cookie', 'a=1'], ['Set-Cookie', 'b=2'], ['Content-Type', 'application/json'], ['Content-Length', String(oddBody.length)]]);
    expect(answer.body.equals(oddBody)).toBe(true);
    await counted(proxy, 1);
    expect(proxy.lines.join('\n')).not.toContain('secret-of-the-client');
  });

  it('the real server behind it answers as it would directly, and conforms: no violation', async () => {
    const proxy = await startProxy(server.baseUrl);
    const calls = [
      { target: '/v1/web/scrape?url=https%3A%2F%2Fexample.com%2F', status: 200 },
      { target: '/v1/web/jobs?limit=2', status: 200 },
      { target: '/v1/web/jobs/job_00000000000000000000000000', status: 404 },
      { target: '/v1/finance/history?symbol=AAPL&interval=1d&range=1mo', status: 200 },
    ];
    for (const { target, status } of calls) {
      const answer = await rawCall(`${proxy.origin}${target}`, { headers: ['x-api-key', key] });
      expect(answer.status, target).toBe(status);
    }
    await counted(proxy, calls.length);
    expect(proxy.lines).toEqual([]);
    expect(proxy.summary.toJSON()).toMatchObject({ requests: calls.length, requestsWithViolations: 0, violations: 0 });
  });

  it('the mock behind it conforms too: no violation on its answers, errors included', async () => {
    const mock = createMockServer({ engine: await createPrismEngine(contractPath), log: () => {} });
    running.push(mock);
    const proxy = await startProxy(`${await listening(mock)}/v1`);
    const targets = ['/v1/web/scrape?url=https%3A%2F%2Fexample.com%2F', '/v1/web/jobs?limit=2', '/v1/web/monitors/mon_00000000000000000000000000', '/v1/web/map'];
    for (const target of targets) await rawCall(`${proxy.origin}${target}`, { headers: ['x-api-key', 'any-key-the-mock-accepts'] });
    await counted(proxy, targets.length);

    expect(proxy.lines).toEqual([`violation ${proxy.lines[0]?.split(' ')[1]} GET /v1/web/map 422 request: query.url is required`]);
    expect(proxy.summary.toJSON()).toMatchObject({ requests: targets.length, violations: 1, byKind: { request: 1 } });
  });
});

describe('the validation proxy reports each violation with its request id', () => {
  const breakages: { name: string; tamper: Tamper; kind: string; says: string }[] = [
    {
      name: 'a body off the schema (a required field missing)',
      tamper: async (call, send) => {
        const answer = await send(call);
        const body = JSON.parse(answer.body) as Record<string, unknown>;
        delete body.cached;
        return { ...answer, body: JSON.stringify(body) };
      },
      kind: 'response-body',
      says: "body (root) must have required property 'cached'",
    },
    {
      name: 'a status the operation does not declare',
      tamper: async (call, send) => ({ ...(await send(call)), status: 418 }),
      kind: 'response-status',
      says: 'status 418 is not declared for scrapeWebPage',
    },
    {
      name: 'a declared header missing',
      tamper: async (call, send) => {
        const answer = await send(call);
        const headers = new Headers(answer.headers);
        headers.delete('x-credits-remaining');
        return { ...answer, headers };
      },
      kind: 'response-header',
      says: 'header X-Credits-Remaining is missing',
    },
  ];

  let tampering: TamperingServer[] = [];
  afterAll(() => Promise.all(tampering.map((wrong) => wrong.close())));

  it.each(breakages)('$name: one line naming the request id, the call and the violation', async ({ tamper, kind, says }) => {
    const wrong = await startTamperingServer(server.baseUrl, tamper);
    tampering.push(wrong);
    const proxy = await startProxy(wrong.baseUrl);

    const answer = await rawCall(`${proxy.origin}/v1/web/scrape?url=https%3A%2F%2Fexample.com%2Fpricing`, { headers: ['x-api-key', key] });
    await counted(proxy, 1);

    const requestId = endToEnd(answer.rawHeaders).find(([name]) => name!.toLowerCase() === 'x-request-id')![1];
    expect(requestId).toMatch(/^req_/);
    expect(proxy.lines).toEqual([`violation ${requestId} GET /v1/web/scrape ${answer.status} ${kind}: ${says}`]);
    expect(proxy.summary.toJSON()).toMatchObject({ requests: 1, requestsWithViolations: 1, violations: 1, byKind: { [kind]: 1 }, byOperation: { scrapeWebPage: 1 } });
  });

  it('a request off the contract is forwarded and reported, without the key', async () => {
    const proxy = await startProxy(server.baseUrl);

    const answer = await rawCall(`${proxy.origin}/v1/web/scrape?url=https%3A%2F%2Fexample.com%2F&colour=red`, { headers: ['x-api-key', key] });
    await counted(proxy, 1);

    expect(answer.status).toBe(422);
    expect(proxy.lines).toEqual([expect.stringMatching(/^violation req_\w+ GET \/v1\/web\/scrape 422 request: query\.colour is not a parameter of scrapeWebPage$/)]);
    expect(proxy.lines.join('\n')).not.toContain(key);
  });

  it('GET /__proxy/summary answers the counts so far, by kind and by operation, and is not forwarded', async () => {
    const wrong = await startTamperingServer(server.baseUrl, async (call, send) => {
      const answer = await send(call);
      return call.target.startsWith('/v1/web/map') ? { ...answer, status: 418 } : answer;
    });
    tampering.push(wrong);
    const proxy = await startProxy(wrong.baseUrl);
    await rawCall(`${proxy.origin}/v1/web/jobs?limit=1`, { headers: ['x-api-key', key] });
    await rawCall(`${proxy.origin}/v1/web/map?url=https%3A%2F%2Fexample.com%2F`, { headers: ['x-api-key', key] });
    await rawCall(`${proxy.origin}/v1/no/such/path`, { headers: ['x-api-key', key] });
    await counted(proxy, 3);

    const answer = await rawCall(`${proxy.origin}${SUMMARY_PATH}`);

    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body.toString())).toEqual({
      requests: 3,
      requestsWithViolations: 2,
      violations: 2,
      byKind: { request: 1, 'response-status': 1, 'response-content-type': 0, 'response-body': 0, 'response-header': 0, 'header-body-agreement': 0, envelope: 0 },
      byOperation: { mapWebsite: 1, unknown: 1 },
    });
  });
});

describe('npm run proxy', () => {
  it('prints the listening address, a violation line per call, and the summary on SIGINT, exit 0', async () => {
    const wrong = await startTamperingServer(server.baseUrl, async (call, send) => ({ ...(await send(call)), status: 418 }));
    const child = spawn(process.execPath, [join(projectRoot, 'scripts', 'proxy', 'main.ts'), '--upstream', wrong.baseUrl, '--port', '0'], { cwd: projectRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => void (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => void (output += chunk.toString()));
    try {
      for (let attempt = 0; attempt < 600 && !/listening on (http:\S+\/v1)/.test(output); attempt++) await new Promise((resolve) => setTimeout(resolve, 50));
      const base = /listening on (http:\S+\/v1)/.exec(output)![1];
      await rawCall(`${base}/web/jobs?limit=1`, { headers: ['x-api-key', key] });
      for (let attempt = 0; attempt < 200 && !output.includes('violation '); attempt++) await new Promise((resolve) => setTimeout(resolve, 10));
      const exited = once(child, 'exit');
      child.kill('SIGINT');
      const [code] = (await exited) as [number];

      expect(code).toBe(0);
      expect(output).toMatch(/^violation req_\w+ GET \/v1\/web\/jobs 418 response-status: status 418 is not declared for listJobs$/m);
      expect(output).toContain('validation proxy summary: 1 request(s), 1 with violations, 1 violation(s)\n  by kind: response-status 1\n  by operation: listJobs 1\n');
      expect(output).not.toContain(key);
    } finally {
      child.kill();
      await wrong.close();
    }
  });

  const usageCases = [
    { name: 'no --upstream', args: [], says: '--upstream is required' },
    { name: 'an --upstream that is not a URL', args: ['--upstream', 'staging'], says: '--upstream must be an http or https URL, got "staging"' },
    { name: 'a --port out of range', args: ['--upstream', 'http://127.0.0.1:9/v1', '--port', '70000'], says: '--port must be an integer from 0 to 65535, got "70000"' },
  ];

  it.each(usageCases)('$name prints what is wrong and the usage, exit 2', async ({ args, says }) => {
    const child = spawn(process.execPath, [join(projectRoot, 'scripts', 'proxy', 'main.ts'), ...args], { cwd: projectRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
    const [code] = (await once(child, 'exit')) as [number];
    expect(code).toBe(2);
    expect(stderr).toBe(`${says}\nusage: npm run proxy -- --upstream URL [--port P] [--host H]   (URL: the deployment's base URL, such as https://staging.example.com/v1)\n`);
  });
});
