/**
 * The real server in this process, as `npm start` builds it, on a SQLite database in a temporary
 * folder, with its job runner ticking every 20 ms: the target of the workflows that follow state.
 * Its keys are issued here, straight into its store.
 */
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHttpServer } from '../../lib/http-server.ts';
import { createApp } from '../../server/app.ts';
import { systemClock } from '../../server/clock.ts';
import { JobRunner } from '../../server/jobs/job-runner.ts';
import { createLogger } from '../../server/logger.ts';
import { Metrics } from '../../server/operator/metrics.ts';
import { buildProviders } from '../../server/providers/build-providers.ts';
import { openStores } from '../../server/store/index.ts';

const JOB_TICK_MS = 20;

export interface SandboxServer {
  /** Base URL with `/v1`. */
  baseUrl: string;
  /** Issues a sandbox key with `credits` and returns its secret. */
  sandboxKey(credits: number): Promise<string>;
  close(): Promise<void>;
}

/** Starts the server on a loopback port of the system's choosing. */
export async function startSandboxServer(): Promise<SandboxServer> {
  const folder = await mkdtemp(join(tmpdir(), 'workflows-server-'));
  const stores = await openStores(join(folder, 'service.sqlite'));
  const logger = createLogger('silent');
  const metrics = new Metrics();
  const providers = buildProviders({ logger });
  const config = { rateLimit: { requests: 1_000_000, windowSeconds: 60 }, checkResponseHeaders: true, allowPrivateNetwork: false, publicBaseUrl: null, corsOrigins: null };
  const app = createApp({ config, stores, providers, clock: systemClock, logger, metrics, readiness: { shuttingDown: false } });
  const server = createHttpServer(app, { publicBaseUrl: null });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const runner = new JobRunner(stores, systemClock, providers, metrics);
  runner.start(JOB_TICK_MS);
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    sandboxKey: async (credits) => (await stores.keys.create({ credits, sandbox: true, name: 'npm run workflows' })).secret,
    async close() {
      await runner.stop();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await providers.close();
      await stores.database.close();
      await rm(folder, { recursive: true, force: true });
    },
  };
}
