import { brotliCompressSync, deflateSync, gzipSync, zstdCompressSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decodedJsonBody, MAX_BODY_BYTES } from './read-body.ts';

const json = '{"url":"https://example.com/","limit":5}';

describe("a JSON body decoded as the server's parser decodes it", () => {
  it.each([
    ['identity', Buffer.from(json)],
    ['gzip', gzipSync(json)],
    ['deflate', deflateSync(json)],
    ['br', brotliCompressSync(json)],
    ['zstd', zstdCompressSync(json)],
    ['GZIP', gzipSync(json)],
  ])('reads a body in Content-Encoding %s', (encoding, bytes) => {
    expect(decodedJsonBody(bytes, 'application/json', encoding)).toEqual({ ok: true, text: json });
  });

  it('reads a body without Content-Encoding in its charset of the UTF family', () => {
    expect(decodedJsonBody(Buffer.from(json), 'application/json; charset=UTF-8', undefined)).toEqual({ ok: true, text: json });
    expect(decodedJsonBody(Buffer.from(json), 'application/json;charset="utf-8"', undefined)).toEqual({ ok: true, text: json });
    expect(decodedJsonBody(Buffer.from(json, 'utf16le'), 'application/json; charset=utf-16le', undefined)).toEqual({ ok: true, text: json });
    expect(decodedJsonBody(Buffer.from(json, 'utf16le').swap16(), 'application/json; charset=utf-16be', undefined)).toEqual({ ok: true, text: json });
  });

  it('reads a UTF-16 body after its Content-Encoding is undone (regression: the mock read every body as UTF-8)', () => {
    expect(decodedJsonBody(gzipSync(Buffer.from(json, 'utf16le')), 'application/json; charset=utf-16le', 'gzip')).toEqual({ ok: true, text: json });
  });

  it('drops a byte-order mark, as the server\'s parser does (regression: the mock answered invalid_json_body)', () => {
    expect(decodedJsonBody(Buffer.from(`\uFEFF${json}`), 'application/json', undefined)).toEqual({ ok: true, text: json });
  });

  it('refuses a charset outside the UTF family, one the decoder does not know and an unknown Content-Encoding, in the parser\'s words', () => {
    expect(decodedJsonBody(Buffer.from(json), 'application/json; charset=latin1', undefined)).toEqual({ ok: false, unsupported: 'unsupported charset "LATIN1"' });
    expect(decodedJsonBody(Buffer.from(json), 'application/json; charset=utf-9', undefined)).toEqual({ ok: false, unsupported: 'unsupported charset "UTF-9"' });
    expect(decodedJsonBody(Buffer.from(json), 'application/json', 'compress')).toEqual({ ok: false, unsupported: 'unsupported content encoding "compress"' });
  });

  it('calls bytes its Content-Encoding does not decode undecodable, with the decoder\'s words', () => {
    expect(decodedJsonBody(Buffer.from(json), 'application/json', 'gzip')).toEqual({ ok: false, undecodable: { encoding: 'gzip', detail: 'incorrect header check' } });
  });

  it('counts the size limit after decoding: a small gzip body that inflates past 1 MiB is too large', () => {
    const bomb = gzipSync(Buffer.alloc(MAX_BODY_BYTES + 1, 0x20));
    expect(bomb.length).toBeLessThan(10_000);
    expect(decodedJsonBody(bomb, 'application/json', 'gzip')).toEqual({ ok: false, tooLarge: true });
  });
});
