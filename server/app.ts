/**
 * createApp: the whole service as an Express app, wired top to bottom: CORS, the operator's
 * endpoints (/healthz, /readyz, /metrics, outside /v1), then the gateway's steps in one middleware
 * (request id, route, key, rate limit, scope, body, contract validation, idempotency), the
 * operation (credits, cache, handler), and the one error handler that renders the error envelope.
 */
import express, { type Express, type RequestHandler } from 'express';
import type { Logger } from 'pino';
import { operations, type OperationId } from '../generated/operations.ts';
import { DOCS_PATH } from '../lib/docs-link.ts';
import type { Clock } from './clock.ts';
import type { ServerConfig } from './config.ts';
import { authenticate, authorize } from './gateway/authenticate.ts';
import { cors } from './gateway/cors.ts';
import { docsRoute } from './docs-route.ts';
import { dispatch } from './gateway/dispatch.ts';
import { errorHandler } from './gateway/error-handler.ts';
import { idempotency } from './gateway/idempotency.ts';
import { parseJsonBody } from './gateway/parse-body.ts';
import { RateLimiter, rateLimit } from './gateway/rate-limit.ts';
import { routeOperation } from './gateway/route-operation.ts';
import { startCall } from './gateway/start-call.ts';
import { gateway } from './gateway/steps.ts';
import { contractValidator } from './gateway/validator.ts';
import { handlers } from './operations/index.ts';
import { operationRoute } from './operations/pipeline.ts';
import { InFlightWork } from './in-flight.ts';
import type { Metrics } from './operator/metrics.ts';
import { operatorRoutes, type Readiness } from './operator/routes.ts';
import type { ProviderRegistry } from './providers/registry.ts';
import type { Stores } from './store/index.ts';

export interface AppDependencies {
  config: Pick<ServerConfig, 'rateLimit' | 'checkResponseHeaders' | 'allowPrivateNetwork' | 'publicBaseUrl' | 'corsOrigins'>;
  stores: Stores;
  providers: ProviderRegistry;
  clock: Clock;
  logger: Logger;
  /** This app's metrics: a registry of its own, also told of ledger entries and job pages by `main.ts`. */
  metrics: Metrics;
  readiness: Readiness;
  /** Request work that may outlive its answer, awaited by shutdown before the database closes. */
  inFlight?: InFlightWork;
}

export function createApp({ config, stores, providers, clock, logger, metrics, readiness, inFlight = new InFlightWork() }: AppDependencies): Express {
  const sendOptions = { checkHeaders: config.checkResponseHeaders, logger };
  const deps = { stores, providers, clock, metrics, addressPolicy: { allowPrivateNetwork: config.allowPrivateNetwork } };
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);

  app.use(cors(config.corsOrigins));
  app.get(DOCS_PATH, docsRoute(logger));
  app.use(operatorRoutes(stores, metrics, readiness));
  const routes = new Map<OperationId, RequestHandler>();
  for (const operation of operations) {
    const handler = handlers[operation.operationId];
    if (!handler) throw new Error(`no handler for the contract's operation ${operation.operationId}`);
    routes.set(operation.operationId, inFlight.handler(operationRoute(operation, handler, deps, sendOptions)));
  }
  app.use(gateway([
    startCall(logger, metrics),
    routeOperation(stores.keys, clock),
    authenticate(stores.keys, clock),
    rateLimit(new RateLimiter(stores.rateLimits, clock), config.rateLimit),
    authorize(),
    parseJsonBody(),
    contractValidator(),
    idempotency(stores.idempotency, clock, inFlight),
  ], dispatch(routes)));
  app.use(inFlight.errorHandler(errorHandler(stores, clock, sendOptions, config.publicBaseUrl)));
  return app;
}
