/** The versioning policy on judged changes (clock injected) and the allow file's format. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAllowFile, type AllowEntry } from './allow-file.ts';
import type { ContractChange } from './change.ts';
import { judge } from './policy.ts';

const today = new Date('2027-03-01T12:00:00Z');
const deleteMonitor = { operationId: 'deleteMonitor', label: 'DELETE /web/monitors/{monitor_id}' };
const removed = (deprecatedInBase?: ContractChange['deprecatedInBase']): ContractChange => ({
  operation: deleteMonitor,
  kind: 'operation-removed',
  at: '',
  detail: '',
  breaking: true,
  deprecatedInBase,
});
const tightened = (at: string): ContractChange => ({
  operation: { operationId: 'crawlWebsite', label: 'POST /web/crawl' },
  kind: 'request-field-changed',
  at,
  detail: 'maxLength none → 2048',
  breaking: true,
});
const entry = (fields: Partial<AllowEntry>): AllowEntry => ({
  operation: 'crawlWebsite',
  change: 'request-field-changed',
  at: undefined,
  reason: 'Bounds the OWASP lint asked for.',
  ...fields,
});

describe('the versioning policy', () => {
  const cases = [
    { name: 'a removal of what the base deprecated passes once its Sunset date has come', change: removed({ sunset: '2027-03-01' }), allowed: [], verdict: { status: 'withdrawn', sunset: '2027-03-01' } },
    {
      name: 'a removal before the Sunset date the base promised is breaking, and says so',
      change: removed({ sunset: '2027-09-01' }),
      allowed: [],
      verdict: { status: 'breaking', why: 'withdrawn before its Sunset date 2027-09-01' },
    },
    {
      name: 'a removal of what the base deprecated without an x-sunset date is breaking',
      change: removed({ sunset: undefined }),
      allowed: [],
      verdict: { status: 'breaking', why: 'deprecated without an `x-sunset` date (YYYY-MM-DD): no withdrawal date was promised' },
    },
    { name: 'a removal of what the base did not deprecate is breaking', change: removed(), allowed: [], verdict: { status: 'breaking' } },
    {
      name: 'an early withdrawal listed in the allow file passes with its reason',
      change: removed({ sunset: '2027-09-01' }),
      allowed: [entry({ operation: 'deleteMonitor', change: 'operation-removed', reason: 'Never used.' })],
      verdict: { status: 'allowed', reason: 'Never used.' },
    },
    { name: 'an entry with places allows a change at one of them', change: tightened('body.goal'), allowed: [entry({ at: ['body.url', 'body.goal'] })], verdict: { status: 'allowed', reason: 'Bounds the OWASP lint asked for.' } },
    { name: 'an entry with places does not allow a change elsewhere', change: tightened('body.limit'), allowed: [entry({ at: ['body.goal'] })], verdict: { status: 'breaking' } },
    { name: 'an entry without places allows every change of its kind in its operation', change: tightened('body.limit'), allowed: [entry({})], verdict: { status: 'allowed', reason: 'Bounds the OWASP lint asked for.' } },
    { name: 'an entry of another operation does not allow it', change: tightened('body.goal'), allowed: [entry({ operation: 'batchScrapeWebPages' })], verdict: { status: 'breaking' } },
    { name: 'a change that breaks nothing is additive', change: { ...tightened('body.goal'), breaking: false }, allowed: [], verdict: { status: 'additive' } },
  ] as const;

  it.each(cases)('$name', ({ change, allowed, verdict }) => {
    const { changes } = judge([change], allowed, today);
    expect(changes[0]!.verdict).toEqual(verdict);
  });

  it('an allow-file entry that matches no breaking change is reported as stale', () => {
    const stale = entry({ operation: 'batchScrapeWebPages' });
    const used = entry({});
    const { staleEntries } = judge([tightened('body.goal'), { ...tightened('body.url'), breaking: false }], [stale, used, entry({ at: ['body.url'] })], today);
    expect(staleEntries).toEqual([stale, entry({ at: ['body.url'] })]);
  });
});

describe('the allow file', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'allow-file-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const cases = [
    { name: 'an entry without a reason is refused, naming the entry', text: 'allowed:\n  - operation: crawlWebsite\n    change: request-field-changed\n', says: /entry 1 gives no `reason`/ },
    { name: 'an empty reason is refused', text: "allowed:\n  - operation: crawlWebsite\n    change: request-field-changed\n    reason: ' '\n", says: /entry 1 gives no `reason`/ },
    { name: 'a kind of change that does not exist is refused, listing the kinds', text: 'allowed:\n  - operation: crawlWebsite\n    change: field-gone\n    reason: x\n', says: /entry 1 has `change: field-gone`, not a kind of change \(operation-added, / },
    { name: 'an unknown key is refused', text: 'allowed:\n  - operation: crawlWebsite\n    change: operation-removed\n    reason: x\n    until: 2027\n', says: /entry 1 has an unknown key `until`/ },
    { name: 'an entry without an operation is refused', text: 'allowed:\n  - change: operation-removed\n    reason: x\n', says: /entry 1 names no `operation`/ },
    { name: '`allowed` that is not a list is refused', text: 'allowed: crawlWebsite\n', says: /`allowed` must be a list of entries/ },
  ];

  it.each(cases)('$name (exit 2)', async ({ text, says }) => {
    const file = join(dir, 'allowed.yaml');
    await writeFile(file, text);
    await expect(readAllowFile(file)).rejects.toMatchObject({ exitCode: 2, message: expect.stringMatching(says) });
  });

  it('reads one place or a list of places, and no file means no entry', async () => {
    const file = join(dir, 'places.yaml');
    await writeFile(
      file,
      'allowed:\n  - operation: crawlWebsite\n    change: request-field-changed\n    at: body.goal\n    reason: One.\n  - operation: crawlWebsite\n    change: request-field-changed\n    at: [body.url, body.goal]\n    reason: Two.\n',
    );
    expect(await readAllowFile(file)).toEqual([entry({ at: ['body.goal'], reason: 'One.' }), entry({ at: ['body.url', 'body.goal'], reason: 'Two.' })]);
    expect(await readAllowFile(join(dir, 'absent.yaml'))).toEqual([]);
  });
});
