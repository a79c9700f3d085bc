/** First middleware: CORS by the operator's `CORS_ORIGINS` (lib/cors.ts); none when it is unset. */
import type { RequestHandler } from 'express';
import { applyCors, type CorsOrigins } from '../../lib/cors.ts';
import { BASE_PATH } from './route-operation.ts';

export function cors(origins: CorsOrigins | null): RequestHandler {
  return (req, res, next) => {
    if (!applyCors(origins, req, res, BASE_PATH)) next();
  };
}
