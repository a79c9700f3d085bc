/**
 * `npm start`: serves the service at http://127.0.0.1:3000/v1 (PORT overrides) on the embedded
 * database (DATABASE_URL, default ./data/wsdq.sqlite). SIGTERM or SIGINT lets in-flight requests
 * finish, then closes the database.
 */
import { createHttpServer } from '../lib/http-server.ts';
import { createApp } from './app.ts';
import { systemClock } from './clock.ts';
import { ConfigError, readConfig } from './config.ts';
import { LiveJobRunner } from './jobs/live-runner.ts';
import { MonitorScheduler } from './monitors/scheduler.ts';
import { SandboxJobRunner } from './jobs/sandbox-runner.ts';
import { HeadlessBrowser } from './providers/web/browser.ts';
import { conversionPool } from './providers/web/conversion-pool.ts';
import { DEFAULT_LIMITS } from './providers/web/fetch-page.ts';
import { guardedAgent } from './providers/web/guarded-agent.ts';
import { createLogger } from './logger.ts';
import { ProviderRegistry } from './providers/registry.ts';
import { sandboxProvider } from './providers/sandbox/index.ts';
import { createWebProvider } from './providers/web/index.ts';
import { repeat } from './repeat.ts';
import { openStores } from './store/index.ts';
import { WebhookDispatcher } from './webhooks/dispatcher.ts';

/** How often due webhook messages are attempted, and due monitors checked. */
const WEBHOOK_TICK_MS = 1000;
const MONITOR_TICK_MS = 1000;

let config;
try {
  config = readConfig();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(`Configuration error: ${error.message}`);
  process.exit(2);
}

const logger = createLogger(config.logLevel);
const policy = { allowPrivateNetwork: config.allowPrivateNetwork };
const browser = config.chromiumPath ? new HeadlessBrowser(config.chromiumPath, policy) : undefined;
const stores = openStores(config.databaseUrl);
let providers: ProviderRegistry;
try {
  providers = new ProviderRegistry(config.providerRoutes, { web: createWebProvider({ policy, ...(browser ? { browser } : {}) }) }, sandboxProvider);
} catch (error) {
  console.error(`Configuration error: ${(error as Error).message}`);
  process.exit(2);
}
const runner = new SandboxJobRunner(stores, systemClock);
runner.start(config.jobTickMs);
const agent = guardedAgent(policy);
const liveRunner = new LiveJobRunner(stores, systemClock, { agent, policy, limits: DEFAULT_LIMITS });
liveRunner.start(config.jobTickMs);
const webhooks = new WebhookDispatcher(stores, systemClock, agent, policy);
webhooks.start(WEBHOOK_TICK_MS);
const monitors = new MonitorScheduler(stores, systemClock, { agent, policy, limits: DEFAULT_LIMITS });
monitors.start(MONITOR_TICK_MS);

/** Expired idempotency records (24 h) and cache entries (7 days) are dropped every 10 minutes. */
const MAINTENANCE_INTERVAL_MS = 10 * 60 * 1000;
const stopMaintenance = repeat(MAINTENANCE_INTERVAL_MS, () => {
  const now = systemClock.now();
  stores.idempotency.purgeExpired(now);
  stores.cache.purgeExpired(now);
});
const app = createApp({ config, stores, providers, clock: systemClock, logger });

const server = createHttpServer(app, { publicBaseUrl: config.publicBaseUrl }).listen(config.port, config.host, () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  console.log(`Web and Social Data Query Service listening on http://${config.host}:${port}/v1 (database ${config.databaseUrl})`);
});

function shutdown(signal: string): void {
  console.log(`${signal} received: finishing in-flight requests`);
  runner.stop();
  liveRunner.stop();
  webhooks.stop();
  monitors.stop();
  stopMaintenance();
  server.close(() => {
    void browser?.close();
    void conversionPool.close();
    stores.database.close();
    console.log('stopped');
    process.exit(0);
  });
  server.closeIdleConnections();
  setTimeout(() => {
    console.error('in-flight requests did not finish within 10 s; closing anyway');
    process.exit(1);
  }, 10_000).unref();
}
process.once('SIGTERM', () => shutdown('SIGTERM'));
process.once('SIGINT', () => shutdown('SIGINT'));
