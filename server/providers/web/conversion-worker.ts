/**
 * A worker thread of the conversion pool: converts the pages it is sent (the pool sends one at a
 * time) and answers each with its document or the reason it could not be converted.
 */
import { parentPort } from 'node:worker_threads';
import { ProviderError } from '../types.ts';
import { htmlToDocument } from './html-to-document.ts';
import { pdfToDocument } from './pdf-to-document.ts';
import { WORKER_READY, type ConversionRequest, type ConversionResult } from './conversion-pool.ts';

parentPort!.on('message', async ({ id, page, task }: ConversionRequest) => {
  let result: ConversionResult;
  try {
    // A Buffer arrives as a plain Uint8Array; the view is rebuilt without copying.
    const received = { ...page, body: Buffer.from(page.body.buffer, page.body.byteOffset, page.body.byteLength) };
    const document = task.kind === 'html' ? htmlToDocument(received, task.options) : await pdfToDocument(received, task.formats, task.parse);
    result = { id, document };
  } catch (error) {
    result = error instanceof ProviderError ? { id, error: error.message, code: error.code } : { id, error: (error as Error).message };
  }
  parentPort!.postMessage(result);
});

parentPort!.postMessage(WORKER_READY);
