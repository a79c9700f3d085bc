/**
 * The real app on an ephemeral loopback port, over an in-memory database (or `databaseUrl`), with the clock, the
 * providers and the log destination injected, for the server's own tests.
 */
import type { Server } from 'node:http';
import type { Agent } from 'undici';
import type { AddressInfo } from 'node:net';
import type { CorsOrigins } from '../../lib/cors.ts';
import { createHttpServer } from '../../lib/http-server.ts';
import { createApp } from '../app.ts';
import { InFlightWork } from '../in-flight.ts';
import type { Clock } from '../clock.ts';
import type { UpstreamConfigs } from '../config.ts';
import { JobRunner } from '../jobs/job-runner.ts';
import type { FetchLimits } from '../outbound/fetch-page.ts';
import { createLogger } from '../logger.ts';
import { buildProviders } from '../providers/build-providers.ts';
import type { ProviderRegistry } from '../providers/registry.ts';
import type { DataProvider } from '../providers/types.ts';
import type { ConversionPool } from '../providers/web/conversion-pool.ts';
import { createWebProvider } from '../providers/web/index.ts';
import { guardedAgent } from '../outbound/guarded-agent.ts';
import { Metrics } from '../operator/metrics.ts';
import type { Readiness } from '../operator/routes.ts';
import type { NewKeyOptions } from '../store/api-keys.ts';
import { openStores, type Stores } from '../store/index.ts';
import { sharedConversionPool } from './shared-conversion-pool.ts';
import type { OperationId } from '../../generated/operations.ts';

/** A clock the test moves by hand. */
export class ManualClock implements Clock {
  private current: number;

  constructor(start = Date.parse('2026-11-20T09:00:00Z')) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  advance(ms: number): void {
    this.current += ms;
  }
}

export interface TestServerOptions {
  /** Providers of the test, reached through `routes`. */
  providers?: Record<string, DataProvider>;
  /** `PROVIDER_ROUTES`: over the default routes of what is built (`web`, `upstreams`). */
  routes?: Partial<Record<OperationId, string>>;
  /** The built-in web provider, as `web`, routed as `npm start` routes it (under `routes`), fetching under the test server's address policy. */
  web?: { limits?: Partial<FetchLimits> };
  /** The upstream adapters to build, as `npm start` builds them from their variables (config.ts), routed by default as it routes them. */
  upstreams?: Partial<UpstreamConfigs>;
  rateLimit?: { requests: number; windowSeconds: number };
  allowPrivateNetwork?: boolean;
  /** `CORS_ORIGINS`, parsed. */
  corsOrigins?: CorsOrigins;
  /** Where the manual clock starts (milliseconds since the epoch). */
  clockStart?: number;
  /** PUBLIC_BASE_URL: where the service is reached behind a proxy. */
  publicBaseUrl?: string;
  /** DATABASE_URL: a new in-memory SQLite database unless given (such as `newPostgresDatabase()`'s URL). */
  databaseUrl?: string;
}

export interface TestServer {
  baseUrl: string;
  stores: Stores;
  clock: ManualClock;
  /** The job runner on the test server's providers, ticked by hand; `close()` stops it (releasing its leases) before closing the database. */
  runner: JobRunner;
  providers: ProviderRegistry;
  /** The guarded agent (this server's own, closed by `close()`) and the conversion pool (the worker's shared one, see shared-conversion-pool.ts) its providers share, as main.ts builds them. */
  agent: Agent;
  pool: ConversionPool;
  metrics: Metrics;
  /** What `main.ts` sets on SIGTERM. */
  readiness: Readiness;
  /** Request work that may outlive its answer; `close()` awaits it before closing the database, as main.ts does. */
  inFlight: InFlightWork;
  logLines: Record<string, unknown>[];
  /** Issues a key and returns its secret. */
  key(options?: Partial<NewKeyOptions>): Promise<{ secret: string; id: string }>;
  call(path: string, init?: { method?: string; key?: string; headers?: Record<string, string>; body?: unknown }): Promise<{ status: number; body: any; headers: Headers }>;
  close(): Promise<void>;
}

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const clock = new ManualClock(options.clockStart);
  const metrics = new Metrics();
  const readiness: Readiness = { shuttingDown: false };
  const stores = await openStores(options.databaseUrl ?? ':memory:', { ledgerObserver: metrics });
  const logLines: Record<string, unknown>[] = [];
  const logger = createLogger('info', { write: (line: string) => void logLines.push(JSON.parse(line)) });
  const policy = { allowPrivateNetwork: options.allowPrivateNetwork ?? false };
  // What main.ts builds once and hands down: the agent this server's own, closed with it; the pool shared.
  const agent = guardedAgent(policy);
  const pool = sharedConversionPool();
  const web = options.web ? createWebProvider({ policy, agent, pool, ...(options.web.limits ? { limits: options.web.limits } : {}) }) : undefined;
  let providers: ProviderRegistry;
  try {
    providers = buildProviders({ ...(web ? { web } : {}), upstreams: options.upstreams ?? {}, routes: options.routes ?? {}, extra: options.providers ?? {}, logger });
  } catch (error) {
    await stores.database.close();
    await agent.destroy();
    throw error;
  }
  const inFlight = new InFlightWork();
  const app = createApp({ config: { rateLimit: options.rateLimit ?? { requests: 1000, windowSeconds: 60 }, checkResponseHeaders: true, allowPrivateNetwork: options.allowPrivateNetwork ?? false, publicBaseUrl: options.publicBaseUrl ?? null, corsOrigins: options.corsOrigins ?? null }, stores, providers, clock, logger, metrics, readiness, inFlight });
  const server: Server = await new Promise((resolve) => {
    const listening = createHttpServer(app, { publicBaseUrl: options.publicBaseUrl ?? null }).listen(0, '127.0.0.1', () => resolve(listening));
  });
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  const runner = new JobRunner(stores, clock, providers, metrics);
  return {
    baseUrl,
    stores,
    clock,
    runner,
    providers,
    agent,
    pool,
    metrics,
    readiness,
    inFlight,
    logLines,
    async key(keyOptions = {}) {
      const { key, secret } = await stores.keys.create({ credits: 1000, sandbox: true, ...keyOptions }, new Date(clock.now()));
      return { secret, id: key.id };
    },
    async call(path, init = {}) {
      const headers: Record<string, string> = { ...(init.key ? { 'x-api-key': init.key } : {}), ...init.headers };
      if (init.body !== undefined) headers['content-type'] = 'application/json';
      const response = await fetch(`${baseUrl}${path}`, { method: init.method ?? 'GET', headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) });
      return { status: response.status, body: await response.json(), headers: response.headers };
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await inFlight.settled();
      // As serve.ts stops it: a job the runner still holds keeps its lease renewed every third of
      // the lease time, and a renewal on a closed database failed later, in another test file.
      await runner.stop();
      await stores.database.close();
      await providers.close();
      await agent.destroy();
    },
  };
}
