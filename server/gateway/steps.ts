/**
 * The gateway's checks as plain calls in one Express middleware: each step reads and fills the
 * call (`res.locals.call`) or throws the ServiceError that answers it, and the operation's route
 * runs after the last. One layer instead of one per step, since each Express layer costs its
 * router a lookup and a `next()` on every call.
 */
import type { Request, RequestHandler, Response } from 'express';

/** `answered`: the step wrote the answer itself (an idempotent replay), so the call ends there. */
export type StepResult = void | 'answered';
export type GatewayStep = (req: Request, res: Response) => StepResult | Promise<StepResult>;

export function gateway(steps: readonly GatewayStep[], route: RequestHandler): RequestHandler {
  return async (req, res, next) => {
    for (const step of steps) {
      const result = step(req, res);
      if ((result instanceof Promise ? await result : result) === 'answered') return;
    }
    return route(req, res, next);
  };
}
