/** An answer written around the kept values it carries is the text JSON.stringify writes, byte for byte. */
import { describe, expect, it } from 'vitest';
import { deepFrozen } from '../lib/deep-frozen.ts';
import { jsonWithKeptValues, withKeptJson } from './kept-json.ts';

const kept = withKeptJson(deepFrozen({ url: 'https://example.com/a', markdown: '# Title\n\n"quoted" \u2028 é 😀', links: [1, null, { a: true }] }));

describe('jsonWithKeptValues', () => {
  it.each([
    ['an envelope carrying a kept value', { success: true, credits_remaining: null, request_id: 'req_1', data: kept }],
    ['a kept value among other fields, not last', { data: kept, other: kept, after: [kept], cached: false }],
    ['fields JSON.stringify leaves out or converts', { gone: undefined, fn: () => 1, sym: Symbol('s'), when: new Date(0), nan: Number.NaN, inf: -Infinity, zero: -0, big: 1e21, small: 5e-7, boxed: Object(3), data: kept }],
    ['no kept value', { success: false, error: { code: 'x', message: 'a "b"' } }],
    ['keys that need escaping', { 'a"b': 1, 'line\nbreak': kept }],
    ['nothing', {}],
    ['only fields left out', { gone: undefined }],
  ])('%s', (_what, body) => {
    expect(jsonWithKeptValues(body as Record<string, unknown>)).toBe(JSON.stringify(body));
  });

  it('writes a kept value from the text remembered when it was kept', () => {
    const value = deepFrozen({ n: 1 });
    withKeptJson(value);
    expect(jsonWithKeptValues({ data: value })).toBe('{"data":{"n":1}}');
  });
});
