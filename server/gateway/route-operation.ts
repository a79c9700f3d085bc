/**
 * Finds the contract's operation for the method and path: 404 for an unknown path, 405 with
 * `Allow` for a wrong method. Both report a valid key's balance, as every answer does; a missing
 * or bad key is not refused here (its balance is unknown).
 */
import type { Request, Response } from 'express';
import { matchRoute } from '../../lib/contract-routes.ts';
import type { Clock } from '../clock.ts';
import type { ApiKeyStore } from '../store/api-keys.ts';
import { keyOf } from './authenticate.ts';
import { callOf } from './call.ts';
import { ServiceError } from './service-error.ts';
import type { GatewayStep } from './steps.ts';
import { endpointNotFound, methodNotAllowed } from '../../lib/error-messages.ts';

export const BASE_PATH = '/v1';

export function routeOperation(keys: ApiKeyStore, clock: Clock): GatewayStep {
  /** Refuses the call with `error`, a valid key noted on it first so that the error envelope carries its balance. */
  const refuse = async (req: Request, res: Response, error: ServiceError): Promise<never> => {
    const key = await keyOf(req, keys, clock);
    if (!(key instanceof ServiceError)) {
      callOf(res).key = key;
      callOf(res).creditsRemaining = key.balance;
    }
    throw error;
  };
  // Synchronous when the call is routed, so that the gateway need not wait on it.
  return (req, res) => {
    const path = req.path;
    if (path !== BASE_PATH && !path.startsWith(`${BASE_PATH}/`)) {
      return refuse(req, res, new ServiceError('endpoint_not_found', endpointNotFound(req.method, path)));
    }
    const route = matchRoute(req.method, path.slice(BASE_PATH.length));
    if (route.kind === 'unknown-path') return refuse(req, res, new ServiceError('endpoint_not_found', endpointNotFound(req.method, path)));
    if (route.kind === 'wrong-method') {
      return refuse(req, res, new ServiceError('method_not_allowed', methodNotAllowed(path, req.method, route.allow), { Allow: route.allow.join(', ') }));
    }
    callOf(res).operation = route.operation;
    callOf(res).pathParameters = route.params;
  };
}
