/** Sends a FuzzRequest as written (path as is, headers and body as given) over node:http and reads the answer. */
import { request as httpRequest } from 'node:http';
import type { ObservedAnswer } from '../suite/conformance.ts';
import { bodyText, requestHeaders, requestTarget, type FuzzRequest } from './request.ts';

const ANSWER_TIMEOUT_MS = 15_000;

export interface SentAnswer extends ObservedAnswer {
  /** The body as text, for messages. */
  text: string;
}

/** Sends `request` to the target at `origin` (scheme, host and port). */
export function send(origin: string, request: FuzzRequest, keys: { apiKey: string; wrongKey: string }): Promise<SentAnswer> {
  const url = new URL(origin);
  const body = bodyText(request);
  const headers = requestHeaders(request, keys.apiKey, keys.wrongKey);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest({ host: url.hostname, port: url.port, method: request.method, path: requestTarget(request), headers, timeout: ANSWER_TIMEOUT_MS }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('error', reject);
      incoming.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const answerHeaders = new Headers();
        for (const [name, value] of Object.entries(incoming.headers)) {
          for (const one of Array.isArray(value) ? value : [value]) if (one !== undefined) answerHeaders.append(name, one);
        }
        let parsed: unknown = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          // Not JSON: the content-type check reports it, the body stays text.
        }
        resolve({ status: incoming.statusCode ?? 0, headers: answerHeaders, contentType: answerHeaders.get('content-type') ?? '', body: parsed, text });
      });
    });
    outgoing.on('timeout', () => outgoing.destroy(new Error(`no answer within ${ANSWER_TIMEOUT_MS} ms`)));
    outgoing.on('error', reject);
    outgoing.end(body === undefined ? undefined : Buffer.from(body, 'utf8'));
  });
}
