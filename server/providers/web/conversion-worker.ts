/**
 * A worker thread of the conversion pool: converts the HTML pages it is sent, one at a time, and
 * answers each with its document or the reason it could not be converted.
 */
import { parentPort } from 'node:worker_threads';
import { htmlToDocument } from './html-to-document.ts';
import { WORKER_READY, type ConversionRequest, type ConversionResult } from './conversion-pool.ts';

parentPort!.on('message', ({ id, page, options }: ConversionRequest) => {
  let result: ConversionResult;
  try {
    // A Buffer arrives as a plain Uint8Array; the view is rebuilt without copying.
    const body = Buffer.from(page.body.buffer, page.body.byteOffset, page.body.byteLength);
    result = { id, document: htmlToDocument({ ...page, body }, options) };
  } catch (error) {
    result = { id, error: (error as Error).message };
  }
  parentPort!.postMessage(result);
});

parentPort!.postMessage(WORKER_READY);
