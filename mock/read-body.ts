import type { IncomingMessage } from 'node:http';

/** The largest request body accepted, as the contract states (`body_too_large`). */
export const MAX_BODY_BYTES = 1024 * 1024;

export type BodyResult = { ok: true; text: string } | { ok: false; tooLarge: true };

/** Reads the whole request body as UTF-8, stopping once it is over {@link MAX_BODY_BYTES}. */
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
  return { ok: true, text: Buffer.concat(chunks).toString('utf8') };
}
