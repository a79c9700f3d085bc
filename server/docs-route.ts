/** `GET /docs`, outside `/v1`: the rendered reference of the contract, where every error's `doc_url` points. */
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import { sendReferencePage } from '../lib/reference-page.ts';

export function docsRoute(logger: Logger): RequestHandler {
  return (_req, res, next) => {
    sendReferencePage(res).then((status) => {
      if (status !== 200) logger.error('the API reference could not be built for /docs');
    }, next);
  };
}
