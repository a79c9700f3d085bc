/** Finds the contract's operation for the method and path: 404 for an unknown path, 405 with `Allow` for a wrong method. */
import type { RequestHandler } from 'express';
import { matchRoute } from '../../lib/contract-routes.ts';
import { callOf } from './call.ts';
import { ServiceError } from './service-error.ts';
import { endpointNotFound, methodNotAllowed } from '../../lib/error-messages.ts';

export const BASE_PATH = '/v1';

export function routeOperation(): RequestHandler {
  return (req, res, next) => {
    const path = req.path;
    if (path !== BASE_PATH && !path.startsWith(`${BASE_PATH}/`)) {
      throw new ServiceError('endpoint_not_found', endpointNotFound(req.method, path));
    }
    const route = matchRoute(req.method, path.slice(BASE_PATH.length));
    if (route.kind === 'unknown-path') throw new ServiceError('endpoint_not_found', endpointNotFound(req.method, path));
    if (route.kind === 'wrong-method') {
      throw new ServiceError('method_not_allowed', methodNotAllowed(path, req.method, route.allow), { Allow: route.allow.join(', ') });
    }
    callOf(res).operation = route.operation;
    next();
  };
}
