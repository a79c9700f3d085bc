/**
 * The validation proxy: forwards every call to the upstream unchanged (forward.ts), then checks the
 * request and the answer against the contract and prints each violation on one line with the
 * answer's request id. `GET /__proxy/summary` answers the summary as JSON (it is never forwarded).
 * Calls outside `/v1` (the reference at /docs, /healthz…) are forwarded and not checked.
 */
import { createServer, type Server } from 'node:http';
import { BASE_PATH, type RequestChecker } from './check-request.ts';
import { checkResponse } from './check-response.ts';
import { forward, type Exchange } from './forward.ts';
import { Summary } from './summary.ts';
import type { Violation } from './violations.ts';

export const SUMMARY_PATH = '/__proxy/summary';

export interface ProxyOptions {
  /** The upstream's base URL, such as https://staging.example.com/v1 (or without the /v1). */
  upstream: URL;
  checkRequest: RequestChecker;
  /** Where violation lines and upstream failures go, one line each. */
  log: (line: string) => void;
  now?: () => number;
}

export interface ValidationProxy {
  server: Server;
  summary: Summary;
}

/** The upstream's URL before `/v1`: the proxy's own paths, `/v1` included, are appended to it. */
export function upstreamPrefix(upstream: URL): URL {
  const prefix = new URL(upstream);
  prefix.pathname = prefix.pathname.replace(/\/+$/, '').replace(/\/v1$/, '');
  prefix.search = '';
  return prefix;
}

function checked(target: string): boolean {
  const path = target.split('?')[0]!;
  return path === BASE_PATH || path.startsWith(`${BASE_PATH}/`);
}

/** One line per violation: the request id first, never a header value of the request (keys stay out of logs). */
function violationLine(exchange: Exchange, violation: Violation): string {
  const requestId = exchange.responseHeaders.get('x-request-id') ?? '(no X-Request-Id)';
  return `violation ${requestId} ${exchange.method} ${exchange.target.split('?')[0]} ${exchange.status} ${violation.kind}: ${violation.message}`;
}

/** Builds the proxy's HTTP server (not yet listening). */
export function createValidationProxy({ upstream, checkRequest, log, now = Date.now }: ProxyOptions): ValidationProxy {
  const prefix = upstreamPrefix(upstream);
  const summary = new Summary();
  const server = createServer((client, answer) => {
    if (client.method === 'GET' && client.url === SUMMARY_PATH) {
      answer.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' }).end(JSON.stringify(summary));
      return;
    }
    forward(client, answer, prefix).then(
      (exchange) => {
        if (!checked(exchange.target)) return;
        const request = checkRequest({ method: exchange.method, target: exchange.target, headers: exchange.requestHeaders, body: exchange.requestBody }, now());
        const violations = [...request.violations, ...checkResponse(request.operation, { status: exchange.status, headers: exchange.responseHeaders, body: exchange.responseBody })];
        summary.record(request.operation?.operationId ?? null, violations);
        for (const violation of violations) log(violationLine(exchange, violation));
      },
      (error: Error) => log(`upstream unreachable for ${client.method} ${(client.url ?? '/').split('?')[0]}: ${error.message}`),
    );
  });
  return { server, summary };
}
