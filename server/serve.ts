/**
 * The service started from a configuration that `main.ts` has read and accepted: the stores, the
 * providers, the app on its socket, then the background work, and the shutdown on SIGTERM or
 * SIGINT. Loaded only once the configuration is accepted, so a bad variable is refused without
 * loading the server's modules.
 */
import { createHttpServer } from '../lib/http-server.ts';
import { createApp } from './app.ts';
import { systemClock } from './clock.ts';
import { JobRunner } from './jobs/job-runner.ts';
import { MonitorScheduler } from './monitors/scheduler.ts';
import { HeadlessBrowser } from './providers/web/browser.ts';
import { ConversionPool } from './providers/web/conversion-pool.ts';
import { guardedAgent } from './outbound/guarded-agent.ts';
import { listen, ListenError } from './listen.ts';
import { createLogger, printLine } from './logger.ts';
import { Metrics } from './operator/metrics.ts';
import type { Readiness } from './operator/routes.ts';
import { buildProviders } from './providers/build-providers.ts';
import type { ProviderRegistry } from './providers/registry.ts';
import { createWebProvider } from './providers/web/index.ts';
import { newInstanceId, type LeaseTerms } from './held-lease.ts';
import { repeat } from './repeat.ts';
import { shownDatabaseUrl } from './store/database-url.ts';
import { openStores, type Stores } from './store/index.ts';
import { InFlightWork } from './in-flight.ts';
import { WebhookDispatcher } from './webhooks/dispatcher.ts';
import type { ServerConfig } from './config.ts';
import { ConfigError, refuseConfiguration } from './config-error.ts';

/** How often due webhook messages are attempted, and due monitors checked. */
const WEBHOOK_TICK_MS = 1000;
const MONITOR_TICK_MS = 1000;
/** Expired idempotency records (24 h) and cache entries (7 days) are dropped every 10 minutes. */
const MAINTENANCE_INTERVAL_MS = 10 * 60 * 1000;

export async function serve(config: ServerConfig): Promise<void> {
  const logger = createLogger(config.logLevel);
  const metrics = new Metrics({ processMetrics: true });
  const policy = { allowPrivateNetwork: config.allowPrivateNetwork };
  /** Built once and handed down: every request made for a user goes over this agent, every page is converted on this pool. */
  const agent = guardedAgent(policy);
  const pool = new ConversionPool();
  const browser = config.chromiumPath ? new HeadlessBrowser(config.chromiumPath, policy, agent) : undefined;
  let stores: Stores;
  try {
    stores = await openStores(config.databaseUrl, { ledgerObserver: metrics });
  } catch (error) {
    refuseConfiguration(`DATABASE_URL: cannot open the database ${shownDatabaseUrl(config.databaseUrl)}: ${(error as Error).message}`);
  }
  let providers: ProviderRegistry;
  try {
    const web = createWebProvider({ policy, agent, pool, ...(browser ? { browser } : {}) });
    providers = buildProviders({ web, upstreams: config.upstreams, routes: config.providerRoutes, logger });
  } catch (error) {
    await stores.database.close();
    if (!(error instanceof ConfigError)) throw error;
    refuseConfiguration(error.message);
  }

  const readiness: Readiness = { shuttingDown: false };
  const inFlight = new InFlightWork();
  const app = createApp({ config, stores, providers, clock: systemClock, logger, metrics, readiness, inFlight });
  const server = createHttpServer(app, { publicBaseUrl: config.publicBaseUrl });

  /** Closes what start-up opened: the browser, the conversion workers, the adapters' connections and the database (open connections end with the process). */
  async function closeResources(): Promise<void> {
    await Promise.allSettled([browser?.close(), pool.close(), providers.close()]);
    await stores.database.close();
  }

  let port: number;
  try {
    port = (await listen(server, config.port, config.host)).port;
  } catch (error) {
    if (!(error instanceof ListenError)) throw error;
    console.error(error.message);
    await closeResources();
    process.exit(1);
  }

  /** This instance's claim on jobs, monitor checks and webhook deliveries, which other instances on the database see. */
  const lease: LeaseTerms = { owner: newInstanceId(), leaseMs: config.leaseMs };
  const runner = new JobRunner(stores, systemClock, providers, metrics, lease);
  runner.start(config.jobTickMs);
  const webhooks = new WebhookDispatcher(stores, systemClock, agent, policy, { lease });
  webhooks.start(WEBHOOK_TICK_MS);
  const monitors = new MonitorScheduler(stores, systemClock, providers, metrics, lease);
  monitors.start(MONITOR_TICK_MS);
  const stopMaintenance = repeat(MAINTENANCE_INTERVAL_MS, async () => {
    const now = systemClock.now();
    await stores.idempotency.purgeExpired(now);
    await stores.cache.purgeExpired(now);
  });

  const shownHost = config.host.includes(':') ? `[${config.host}]` : config.host;
  printLine(`Web and Social Data Query Service listening on http://${shownHost}:${port}/v1 (database ${shownDatabaseUrl(config.databaseUrl)}, instance ${lease.owner})`);

  function shutdown(signal: string): void {
    printLine(`${signal} received: finishing in-flight requests`);
    readiness.shuttingDown = true;
    // The background work ends and its leases are released (other instances take it over at once) while requests finish.
    const workStopped = Promise.allSettled([runner.stop(), webhooks.stop(), monitors.stop()]);
    stopMaintenance();
    server.close(() => {
      // The connections are closed; the work of their handlers that outlives the answers finishes before the database closes.
      void Promise.all([workStopped, inFlight.settled()]).then(closeResources).then(() => {
        printLine('stopped');
        process.exit(0);
      });
    });
    server.closeIdleConnections();
    // A keep-alive connection whose in-flight answer is sent after this falls idle: closed within 50 ms,
    // rather than held open until its keep-alive timeout (which held the exit back ~3 s).
    setInterval(() => server.closeIdleConnections(), 50).unref();
    setTimeout(() => {
      console.error('in-flight requests did not finish within 10 s; closing anyway');
      process.exit(1);
    }, 10_000).unref();
  }
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}
