/**
 * Calls the route of the operation `routeOperation` found, with its path parameters as
 * `req.params`: one lookup in a map, instead of Express trying each operation's route in turn
 * for a path the contract's routing has already matched.
 */
import type { RequestHandler } from 'express';
import type { OperationId } from '../../generated/operations.ts';
import { callOf } from './call.ts';

export function dispatch(routes: ReadonlyMap<OperationId, RequestHandler>): RequestHandler {
  return (req, res, next) => {
    const call = callOf(res);
    // Express sets `req.params` anew for every layer; the validator has refused a malformed path before here.
    req.params = call.pathParameters ?? {};
    return routes.get(call.operation!.operationId)!(req, res, next);
  };
}
