import { describe, expect, it } from 'vitest';
import type { EnvelopeBody } from '../../lib/envelope.ts';
import { envelopeJson } from './send.ts';

const success = {
  success: true,
  platform: 'socialnet',
  endpoint: '/socialnet/events',
  credits_used: 1,
  credits_remaining: 41,
  request_id: 'req_01JX0000000000000000000000',
  cached: true,
  data: { source_url: 'https://social.example/groups/a "quoted" \u2028 name', events: [{ id: '1', name: 'Ünïcode ✓', counts: null }], next_cursor: null },
} as unknown as EnvelopeBody;

describe('envelopeJson, the answer written around data serialised once', () => {
  it('is JSON.stringify(body) byte for byte when given JSON.stringify(body.data)', () => {
    expect(envelopeJson(success, JSON.stringify(success.data))).toBe(JSON.stringify(success));
  });

  it('is JSON.stringify(body) when no serialised data is given', () => {
    expect(envelopeJson(success)).toBe(JSON.stringify(success));
  });

  it('writes data into an otherwise empty envelope without a stray comma', () => {
    expect(envelopeJson({ data: { a: 1 } } as unknown as EnvelopeBody, '{"a":1}')).toBe('{"data":{"a":1}}');
  });
});
