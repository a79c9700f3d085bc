/**
 * The `curl` line printed for a failure sends the very request the fuzzer sent: read back by a
 * real shell (with `curl` standing in as a function that prints its arguments), every argument
 * comes out as written, whatever the path, query, headers and body hold.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { bodyText, curlLine, requestTarget, type FuzzRequest } from './request.ts';

const run = promisify(execFile);
const ORIGIN = 'http://127.0.0.1:4010';
const WRONG_KEY = 'wsdq_test_00000000000000000000000000000000';

/** The arguments `curl` would get from `line`, as bash splits and expands it. */
async function curlArguments(line: string): Promise<string[]> {
  const script = `curl() { printf '%s\\0' "$@"; }\n${line}`;
  const { stdout } = await run('bash', ['-c', script], { env: { ...process.env, FUZZ_API_KEY: 'wsdq_test_fuzzkey' } });
  return stdout.split('\0').slice(0, -1);
}

const base: FuzzRequest = { operationId: 'getJob', method: 'GET', path: '/web/jobs/{job_id}', pathParams: { job_id: 'job_01M7W3QYVRK6724RN1MPS1JQRE' }, query: [], headers: {}, key: 'valid' };

const cases: { name: string; request: FuzzRequest; headers: string[] }[] = [
  { name: 'a valid key as $FUZZ_API_KEY', request: base, headers: ['x-api-key: wsdq_test_fuzzkey'] },
  { name: 'a dot-segment id sent as is, and no key', request: { ...base, pathParams: { job_id: '..' }, key: 'missing' }, headers: [] },
  { name: 'a malformed percent-encoding written raw, and a wrong key', request: { ...base, pathParams: { job_id: '%FF' }, rawPathParams: ['job_id'], key: 'wrong' }, headers: [`x-api-key: ${WRONG_KEY}`] },
  {
    name: 'query values with quotes, NUL, emoji and right-to-left marks, a repeated name, an empty header',
    request: { ...base, operationId: 'listJobs', path: '/web/jobs', pathParams: {}, query: [['limit', "1'2"], ['limit', '\u0000😀\u202E'], ['cursor', '']], headers: { 'Idempotency-Key': '', 'Cache-Control': `no-cache, it's "quoted"` } },
    headers: ['Idempotency-Key;', `Cache-Control: no-cache, it's "quoted"`, 'x-api-key: wsdq_test_fuzzkey'],
  },
  {
    name: 'a JSON body with quotes, a backslash and unicode, in a wrong media type',
    request: { ...base, operationId: 'createMonitor', method: 'POST', path: '/web/monitors', pathParams: {}, body: { url: 'https://example.com/', name: `it's a "test" \\ ‮ 😀 \u0000` }, contentType: 'text/plain' },
    headers: ['x-api-key: wsdq_test_fuzzkey', 'content-type: text/plain'],
  },
  {
    name: 'malformed JSON sent as is',
    request: { ...base, operationId: 'createMonitor', method: 'POST', path: '/web/monitors', pathParams: {}, rawBody: `{'url': "https://example.com" ` },
    headers: ['x-api-key: wsdq_test_fuzzkey', 'content-type: application/json'],
  },
];

describe('the curl line of a failure', () => {
  for (const { name, request, headers } of cases) {
    it(`sends the request as the fuzzer did: ${name}`, async () => {
      const args = await curlArguments(curlLine(request, ORIGIN, WRONG_KEY));
      expect(args.slice(0, 7)).toEqual(['-sS', '-i', '--path-as-is', '-g', '-X', request.method, `${ORIGIN}${requestTarget(request)}`]);
      const sentHeaders = args.flatMap((arg, index) => (args[index - 1] === '-H' ? [arg] : []));
      expect(sentHeaders).toEqual(headers);
      const body = bodyText(request);
      expect(args.includes('--data-binary') ? args[args.indexOf('--data-binary') + 1] : undefined).toEqual(body);
    });
  }

  it('writes the path as the fuzzer sends it: ids percent-encoded, dots kept, raw ids raw', () => {
    expect(requestTarget({ ...base, pathParams: { job_id: '../a b\u0000' } })).toBe('/v1/web/jobs/..%2Fa%20b%00');
    expect(requestTarget({ ...base, pathParams: { job_id: '%E0%A4%A' }, rawPathParams: ['job_id'] })).toBe('/v1/web/jobs/%E0%A4%A');
    expect(requestTarget({ ...base, query: [['a', '1&b=2'], ['a', '+']] })).toBe('/v1/web/jobs/job_01M7W3QYVRK6724RN1MPS1JQRE?a=1%26b%3D2&a=%2B');
  });
});
