/** A POST without the JSON body its operation requires, however it is sent, says so in the same words on the server and the mock. */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations } from '../generated/operations.ts';
import { startMockAndServer, type RunningTarget } from '../server/test-support/mock-and-server.ts';
import { missingBodyMessage } from './request-body.ts';

const crawl = operations.find((operation) => operation.operationId === 'crawlWebsite')!;

/** POSTs with exactly these headers and body chunks (node:http adds nothing but Host and Connection). */
function post(url: string, headers: Record<string, string>, chunks: string[]): Promise<{ status: number; body: Record<string, any> }> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { method: 'POST', headers }, (answer) => {
      let text = '';
      answer.on('data', (chunk) => (text += chunk));
      answer.on('end', () => resolve({ status: answer.statusCode!, body: JSON.parse(text) }));
    });
    outgoing.on('error', reject);
    for (const chunk of chunks) outgoing.write(chunk);
    outgoing.end();
  });
}

describe('a call without its required body', () => {
  let targets: RunningTarget[] = [];
  beforeAll(async () => (targets = await startMockAndServer()));
  afterAll(() => Promise.all(targets.map((target) => target.close())));

  it('names every field of the body, the required ones first and marked', () => {
    expect(missingBodyMessage(crawl)).toBe('Invalid parameters: a JSON body is required: crawlWebsite takes an object with url (required), limit, max_depth, allow_backward_links, allow_external_links, include_paths, exclude_paths, webhook_url, formats, goal.');
  });

  const cases: { name: string; headers: Record<string, string>; chunks: string[] }[] = [
    { name: 'no Content-Length and no Content-Type (the server said body.body is required or unsupported_media_type)', headers: {}, chunks: [] },
    { name: 'Content-Length: 0, no Content-Type', headers: { 'content-length': '0' }, chunks: [] },
    { name: 'Content-Length: 0 as application/json (the server said body.url is required)', headers: { 'content-length': '0', 'content-type': 'application/json' }, chunks: [] },
    { name: 'chunked with no bytes, as application/json', headers: { 'transfer-encoding': 'chunked', 'content-type': 'application/json' }, chunks: [] },
    { name: 'only whitespace, as application/json', headers: { 'content-type': 'application/json' }, chunks: [' \n '] },
  ];
  for (const name of ['server', 'mock']) {
    it.each(cases)(`the ${name} answers $name: 422, a JSON body is required`, async ({ headers, chunks }) => {
      const target = targets.find((candidate) => candidate.name === name)!;
      const answer = await post(`${target.baseUrl}/web/crawl`, { 'x-api-key': target.key, ...headers }, chunks);
      expect(answer.status).toBe(422);
      expect(answer.body.error).toMatchObject({ code: 'invalid_parameters', message: missingBodyMessage(crawl) });
    });

    it(`the ${name} still names the missing field of an empty object`, async () => {
      const target = targets.find((candidate) => candidate.name === name)!;
      const answer = await post(`${target.baseUrl}/web/crawl`, { 'x-api-key': target.key, 'content-type': 'application/json' }, ['{}']);
      expect(answer.body.error).toMatchObject({ code: 'invalid_parameters', message: 'Invalid parameters: body.url is required.' });
    });
  }
});
