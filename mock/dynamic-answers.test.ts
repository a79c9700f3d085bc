/**
 * Dynamic answers (`Prefer: dynamic=true`) are believable, for every operation and several seeds:
 * dates in this century, a record's timestamps in order, URLs on real-looking hosts, the URL and
 * ids asked for echoed, and an envelope as real as an example's (a balance, a fresh request id,
 * headers that agree). They once had dates in 1891, `updated_at` before `created_at`, hosts like
 * `knlcUKt-76wuIKjFUkVXPCZLRQpL+` and `credits_remaining: null`.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validRequests } from '../contract-tests/suite/valid-requests.ts';
import { operations } from '../generated/operations.ts';
import { contractPath } from '../lib/contract-document.ts';
import { createMockServer, MOCK_BALANCE } from './create-mock-server.ts';
import { createPrismEngine } from './prism-engine.ts';

const PATH_IDS: Record<string, string> = { job_id: 'job_01M7W3QYVRK6724RN1MPS1JQRE', monitor_id: 'mon_01JD8XE6SZAEAVSNTCPM5Q1NXW' };
const SEEDS = ['1', '2', '3', '4', '5'];
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
/** Lower-case labels of letters, digits and inner hyphens, and a top-level domain of letters. */
const REAL_LOOKING_HOST = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,}$/;

type Json = unknown;

/** Every string in `value` with its path. */
function strings(value: Json, path = 'data'): [string, string][] {
  if (typeof value === 'string') return [[path, value]];
  if (Array.isArray(value)) return value.flatMap((item, index) => strings(item, `${path}[${index}]`));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([key, item]) => strings(item, `${path}.${key}`));
  return [];
}

/** Every object in `value` that has both `created_at` and `updated_at`. */
function records(value: Json): Record<string, string>[] {
  if (Array.isArray(value)) return value.flatMap(records);
  if (!value || typeof value !== 'object') return [];
  const here = 'created_at' in value && 'updated_at' in value ? [value as Record<string, string>] : [];
  return [...here, ...Object.values(value).flatMap(records)];
}

function problemsOf(data: Json): string[] {
  const problems: string[] = [];
  for (const [path, text] of strings(data)) {
    if (DATE_TIME.test(text)) {
      const year = new Date(text).getUTCFullYear();
      if (year < 2000 || year > 2100) problems.push(`${path} ${text} is not within 2000..2100`);
    }
    // A batch's invalid_urls are the URLs it skipped for being malformed or non-public: not checked.
    if ((/^https?:/i.test(text) || /(^|\.)(url|\w+_url)$/.test(path)) && !path.includes('.invalid_urls[')) {
      let url: URL | undefined;
      try {
        url = new URL(text);
      } catch {
        problems.push(`${path} "${text}" is not a URL`);
      }
      if (url && !/^https?:$/.test(url.protocol)) problems.push(`${path} "${text}" is not http(s)`);
      else if (url && !REAL_LOOKING_HOST.test(url.hostname)) problems.push(`${path} "${text}" has no real-looking host`);
    }
  }
  for (const record of records(data)) {
    if (Date.parse(record.created_at!) > Date.parse(record.updated_at!)) problems.push(`created_at ${record.created_at} is after updated_at ${record.updated_at}`);
    for (const field of ['started_at', 'completed_at']) {
      if (record[field] && Date.parse(record[field]) < Date.parse(record.created_at!)) problems.push(`${field} ${record[field]} is before created_at ${record.created_at}`);
    }
  }
  return problems;
}

const cases = operations.flatMap((operation) => SEEDS.map((seed) => ({ operation, seed })));

describe('dynamic answers', () => {
  let server: Server;
  let origin: string;

  beforeAll(async () => {
    server = createMockServer({ engine: await createPrismEngine(contractPath), log: () => undefined });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it.for(cases)('$operation.operationId (seed $seed): dates within 2000..2100, created ≤ updated, URLs on real hosts, an envelope that agrees with its headers', async ({ operation, seed }) => {
    const valid = validRequests[operation.operationId];
    const url = new URL(`${origin}/v1${operation.path.replace(/\{(\w+)\}/g, (_, name: string) => PATH_IDS[name]!)}`);
    for (const [name, value] of Object.entries(valid.query ?? {})) url.searchParams.set(name, value);
    const answer = await fetch(url, {
      method: operation.method,
      headers: { 'x-api-key': 'k', Prefer: `dynamic=true, seed=${seed}`, ...(valid.body ? { 'content-type': 'application/json' } : {}) },
      body: valid.body ? JSON.stringify(valid.body) : undefined,
    });
    const body = await answer.json();

    expect(answer.status, JSON.stringify(body)).toBe(200);
    expect([body.credits_remaining, body.credits_used]).toEqual([MOCK_BALANCE, operation.creditCost]);
    expect(body.request_id).toMatch(/^req_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect([answer.headers.get('x-request-id'), answer.headers.get('x-credits-remaining'), answer.headers.get('x-credits-used')])
      .toEqual([body.request_id, String(MOCK_BALANCE), String(operation.creditCost)]);
    expect(problemsOf(body.data), JSON.stringify(body.data).slice(0, 2000)).toEqual([]);
  });

  it('a dynamic scrape echoes the URL asked and carries exactly the formats asked for', async () => {
    const answer = await fetch(`${origin}/v1/web/scrape?url=https://shop.example.org/cart&formats=html,links`, { headers: { 'x-api-key': 'k', Prefer: 'dynamic=true, seed=9' } });
    const { data } = await answer.json();
    expect(Object.keys(data).sort()).toEqual(['html', 'links', 'url']);
    expect(data.url).toBe('https://shop.example.org/cart');
  });

  it('dynamic upcoming events have not ended, past ones have, each list in its order (upcoming events were in the past)', async () => {
    for (const time of ['upcoming', 'past']) {
      const answer = await fetch(`${origin}/v1/socialnet/events?url=https://social.example/groups/berlin-hikers&time=${time}`, { headers: { 'x-api-key': 'k', Prefer: 'dynamic=true, seed=3' } });
      const { data } = await answer.json();
      const ends = data.events.map((event: { start_time: string; end_time: string | null }) => Date.parse(event.end_time ?? event.start_time));
      for (const end of ends) expect(time === 'upcoming' ? end > Date.now() : end <= Date.now(), `${time}: ${JSON.stringify(data.events)}`).toBe(true);
      const starts = data.events.map((event: { start_time: string }) => event.start_time);
      expect(starts).toEqual([...starts].sort((a, b) => (time === 'upcoming' ? a.localeCompare(b) : b.localeCompare(a))));
    }
  });

  it('a dynamic job agrees with its status: a queued job has not started, only a failed one has an error', async () => {
    for (const seed of SEEDS) {
      const { data } = await (await fetch(`${origin}/v1/web/jobs?limit=5`, { headers: { 'x-api-key': 'k', Prefer: `dynamic=true, seed=${seed}` } })).json();
      for (const job of data.jobs) {
        if (job.status === 'queued') expect([job.started_at, job.completed_at]).toEqual([null, null]);
        if (job.status !== 'failed') expect(job.error).toBeNull();
        if (['completed', 'failed', 'cancelled'].includes(job.status)) expect(job.completed_at).not.toBeNull();
      }
      expect(new Set(data.jobs.map((job: { id: string }) => job.id)).size).toBe(data.jobs.length);
    }
  });
});
