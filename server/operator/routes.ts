/**
 * The operator's endpoints, outside /v1 and outside the API contract: no key, no envelope, no
 * credits, no request log line.
 *   GET /healthz  200 {"status":"ok"} while the process serves HTTP (liveness)
 *   GET /readyz   200 {"status":"ready"} when the database answers and every migration is applied;
 *                 503 {"status":"not_ready","reason":…} otherwise, and from SIGTERM on while in-flight requests finish
 *   GET /metrics  Prometheus text format (see metrics.ts)
 */
import { Router, type Response } from 'express';
import type { Stores } from '../store/index.ts';
import type { Metrics } from './metrics.ts';

/** Set by `main.ts` when SIGTERM or SIGINT arrives, so /readyz turns away new traffic while in-flight requests finish. */
export interface Readiness {
  shuttingDown: boolean;
}

/** Why the service is not ready, or null when it is. */
async function notReadyBecause(stores: Stores, readiness: Readiness): Promise<string | null> {
  if (readiness.shuttingDown) return 'shutting down';
  try {
    const { applied, expected } = await stores.database.migrationsApplied();
    return applied === expected ? null : `database migrations pending: ${applied} of ${expected} applied`;
  } catch (error) {
    return `the database does not answer: ${(error as Error).message}`;
  }
}

function noStore(res: Response): Response {
  return res.set('cache-control', 'no-store');
}

export function operatorRoutes(stores: Stores, metrics: Metrics, readiness: Readiness): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    noStore(res).status(200).json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    const reason = await notReadyBecause(stores, readiness);
    if (reason === null) noStore(res).status(200).json({ status: 'ready' });
    else noStore(res).status(503).json({ status: 'not_ready', reason });
  });
  router.get('/metrics', async (_req, res) => {
    let jobsByStatus: Record<string, number>;
    try {
      jobsByStatus = await stores.jobs.countByStatus();
    } catch (error) {
      noStore(res).status(503).type('text/plain').send(`# the database does not answer: ${(error as Error).message}\n`);
      return;
    }
    noStore(res).status(200).type(metrics.contentType).send(await metrics.text(jobsByStatus));
  });
  return router;
}
