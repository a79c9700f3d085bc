/** The rules across query parameters, as the server and the mock both apply them. */
import { describe, expect, it } from 'vitest';
import { crossParameterProblem } from './cross-parameter-rules.ts';
import type { OperationId } from '../generated/operations.ts';

const NOW = Date.parse('2026-11-20T09:00:00Z');

const cases: { name: string; operationId: OperationId; query: Record<string, unknown>; problem: string | undefined }[] = [
  { name: 'extract with a prompt', operationId: 'extractWebData', query: { url: 'u', prompt: 'p' }, problem: undefined },
  { name: 'extract with an object schema', operationId: 'extractWebData', query: { schema: '{"type":"object"}' }, problem: undefined },
  { name: 'extract with neither schema nor prompt', operationId: 'extractWebData', query: { url: 'u' }, problem: 'give exactly one of query.schema and query.prompt (neither was given)' },
  { name: 'extract with both', operationId: 'extractWebData', query: { schema: '{"type":"object"}', prompt: 'p' }, problem: 'give exactly one of query.schema and query.prompt (both were given)' },
  { name: 'extract with a schema that is not JSON', operationId: 'extractWebData', query: { schema: '{nope' }, problem: expect.stringMatching(/^query\.schema is not JSON: /) },
  { name: 'extract with a schema whose root is not an object', operationId: 'extractWebData', query: { schema: '{"type":"array"}' }, problem: 'query.schema must be a JSON Schema whose root has "type": "object"' },
  { name: 'search with both domain lists', operationId: 'searchWeb', query: { include_domains: ['a.com'], exclude_domains: 'b.com' }, problem: 'give at most one of query.include_domains and query.exclude_domains' },
  { name: 'search with one domain list', operationId: 'searchWeb', query: { include_domains: 'a.com' }, problem: undefined },
  { name: 'history with range and start', operationId: 'getPriceHistory', query: { range: '1y', start: '2026-01-01' }, problem: 'give either query.range or query.start (with an optional query.end), not both' },
  { name: 'history with end alone', operationId: 'getPriceHistory', query: { end: '2026-01-01' }, problem: 'query.end needs query.start' },
  { name: 'history ending before it starts', operationId: 'getPriceHistory', query: { start: '2026-02-01', end: '2026-01-01' }, problem: 'query.end (2026-01-01) is before query.start (2026-02-01)' },
  { name: 'history starting after today (of the injected clock)', operationId: 'getPriceHistory', query: { start: '2026-11-21' }, problem: 'query.start (2026-11-21) is after today (2026-11-20)' },
  { name: 'history starting today', operationId: 'getPriceHistory', query: { start: '2026-11-20' }, problem: undefined },
  { name: 'events until before since', operationId: 'listSocialEvents', query: { since: '2026-05-02', until: '2026-05-01' }, problem: 'query.until (2026-05-01) is before query.since (2026-05-02)' },
  { name: 'an operation without rules', operationId: 'scrapeWebPage', query: { url: 'u' }, problem: undefined },
];

describe('crossParameterProblem', () => {
  it.each(cases)('$name', ({ operationId, query, problem }) => {
    expect(crossParameterProblem(operationId, query, NOW)).toEqual(problem);
  });
});
