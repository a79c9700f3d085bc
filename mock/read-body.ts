import type { IncomingMessage } from 'node:http';
import { brotliDecompressSync, gunzipSync, inflateSync, zstdDecompressSync } from 'node:zlib';
import iconv from 'iconv-lite';

/** The largest request body accepted, as the contract states (`body_too_large`), counted after its Content-Encoding is undone. */
export const MAX_BODY_BYTES = 1024 * 1024;

export type BodyResult = { ok: true; bytes: Buffer } | { ok: false; tooLarge: true };

/** Reads the whole request body, stopping once it is over {@link MAX_BODY_BYTES}. */
export async function readBody(request: IncomingMessage): Promise<BodyResult> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) {
      request.resume();
      return { ok: false, tooLarge: true };
    }
    chunks.push(chunk);
  }
  return { ok: true, bytes: Buffer.concat(chunks) };
}

const DECODERS: Record<string, (bytes: Buffer, options: { maxOutputLength: number }) => Buffer> = {
  deflate: inflateSync,
  gzip: gunzipSync,
  br: brotliDecompressSync,
  zstd: zstdDecompressSync,
};

export type DecodedBody =
  | { ok: true; text: string }
  | { ok: false; tooLarge: true }
  | { ok: false; unsupported: string }
  | { ok: false; undecodable: { encoding: string; detail: string } };

/**
 * A JSON body's text, as the server's parser (body-parser) reads it: a charset outside UTF-8's family,
 * or one iconv-lite (body-parser's decoder) does not know, and a Content-Encoding other than identity,
 * deflate, gzip, br or zstd are unsupported (in its words); bytes the encoding does not decode are
 * undecodable (the decoder's words). The text is decoded by iconv-lite in the body's charset, a
 * byte-order mark dropped, as body-parser decodes it (a UTF-16 body, a UTF-8 one with a BOM).
 */
export function decodedJsonBody(bytes: Buffer, contentType: string, contentEncoding: string | undefined): DecodedBody {
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType)?.[1]?.toLowerCase() ?? 'utf-8';
  if (!charset.startsWith('utf-') || !iconv.encodingExists(charset)) return { ok: false, unsupported: `unsupported charset "${charset.toUpperCase()}"` };
  const encoding = (contentEncoding ?? 'identity').toLowerCase();
  if (encoding === 'identity') return { ok: true, text: iconv.decode(bytes, charset) };
  const decode = DECODERS[encoding];
  if (!decode) return { ok: false, unsupported: `unsupported content encoding "${encoding}"` };
  try {
    return { ok: true, text: iconv.decode(decode(bytes, { maxOutputLength: MAX_BODY_BYTES }), charset) };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') return { ok: false, tooLarge: true };
    return { ok: false, undecodable: { encoding, detail: (error as Error).message } };
  }
}
