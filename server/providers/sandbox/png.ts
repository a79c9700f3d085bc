/** A tiny PNG encoder for the sandbox's screenshots: a header bar and grey text lines on white. */
import { crc32, deflateSync } from 'node:zlib';

export type Rgb = readonly [number, number, number];

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const WHITE: Rgb = [255, 255, 255];
const GREY: Rgb = [200, 200, 200];

/** A `data:image/png;base64,` URL of a `width`×`height` sketch of a page whose header is `accent`. */
export function pageSketchPngDataUrl(width: number, height: number, accent: Rgb): string {
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 3); // filter byte 0: none
    for (let x = 0; x < width; x++) row.set(pixel(x, y, width, accent), 1 + x * 3);
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, deflate, no filter, no interlace
  const png = Buffer.concat([
    PNG_SIGNATURE,
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
  return `data:image/png;base64,${png.toString('base64')}`;
}

function pixel(x: number, y: number, width: number, accent: Rgb): Rgb {
  if (y < 6) return accent;
  const margin = 4;
  const isTextLine = y >= 10 && (y - 10) % 4 < 2;
  const lineEnd = width - margin - ((y * 7) % Math.max(1, Math.floor(width / 3)));
  return isTextLine && x >= margin && x < lineEnd ? GREY : WHITE;
}

function chunk(type: string, data: Buffer): Buffer {
  const typeAndData = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length, 0);
  const checksum = Buffer.alloc(4);
  checksum.writeUInt32BE(crc32(typeAndData) >>> 0, 0);
  return Buffer.concat([length, typeAndData, checksum]);
}
