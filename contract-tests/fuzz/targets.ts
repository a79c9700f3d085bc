/**
 * What the fuzzer runs against, in this process on a loopback port: the mock (as `npm run mock`
 * builds it), or the real server on a SQLite database in a temporary folder with a sandbox key of
 * its own, issued through the key store. Or a target already running at a URL.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { contractPath } from '../../lib/contract-document.ts';
import { createHttpServer } from '../../lib/http-server.ts';
import { createMockServer } from '../../mock/create-mock-server.ts';
import { createPrismEngine } from '../../mock/prism-engine.ts';
import { createApp } from '../../server/app.ts';
import { systemClock } from '../../server/clock.ts';
import { createLogger } from '../../server/logger.ts';
import { Metrics } from '../../server/operator/metrics.ts';
import { buildProviders } from '../../server/providers/build-providers.ts';
import { openStores } from '../../server/store/index.ts';
import type { KeyUse } from './request.ts';

export type TargetKind = 'mock' | 'server';

export interface FuzzTarget {
  kind: TargetKind;
  /** Scheme, host and port; the API is below `/v1`. */
  origin: string;
  apiKey: string;
  /** A key of the right shape that the target never issued. */
  wrongKey: string;
  /** The key uses the target tells apart from a valid key (the mock accepts any non-empty key). */
  keyUses: readonly KeyUse[];
  /** Whether balances move with calls (X-Credits-Remaining tells the real balance). */
  keepsAccounts: boolean;
  /** Whether jobs and monitors are records that a delete removes. */
  keepsState: boolean;
  stop(): Promise<void>;
}

const WRONG_KEY = 'wsdq_test_00000000000000000000000000000000';
/** Enough credits for any budget: a balance that runs out would turn valid requests into 402s. */
const FUZZ_CREDITS = 1_000_000_000;

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function close(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

const mockTraits = { keyUses: ['missing'] as KeyUse[], keepsAccounts: false, keepsState: false };
const serverTraits = { keyUses: ['missing', 'wrong'] as KeyUse[], keepsAccounts: true, keepsState: true };

/** The mock, as `npm run mock` builds it, without its request log. */
export async function startMockTarget(): Promise<FuzzTarget> {
  const server = createMockServer({ engine: await createPrismEngine(contractPath), log: () => {} });
  return { kind: 'mock', origin: await listen(server), apiKey: 'fuzz-key-the-mock-accepts', wrongKey: WRONG_KEY, ...mockTraits, stop: () => close(server) };
}

/**
 * The server as `npm start` builds it, on a database in a temporary folder, with a sandbox key.
 * No job runner and no monitor scheduler run, so a balance moves only with the fuzzer's calls.
 */
export async function startServerTarget(): Promise<FuzzTarget> {
  const folder = await mkdtemp(join(tmpdir(), 'wsdq-fuzz-'));
  const stores = await openStores(join(folder, 'fuzz.sqlite'));
  const logger = createLogger('silent');
  const providers = buildProviders({ upstreams: {}, routes: {}, logger });
  const config = { rateLimit: { requests: 1_000_000, windowSeconds: 60 }, checkResponseHeaders: true, allowPrivateNetwork: false, publicBaseUrl: null, corsOrigins: null };
  const app = createApp({ config, stores, providers, clock: systemClock, logger, metrics: new Metrics(), readiness: { shuttingDown: false } });
  const server = createHttpServer(app, { publicBaseUrl: null });
  const { secret } = await stores.keys.create({ credits: FUZZ_CREDITS, sandbox: true, name: 'fuzzer' });
  return {
    kind: 'server', origin: await listen(server), apiKey: secret, wrongKey: WRONG_KEY, ...serverTraits,
    async stop() {
      await close(server);
      await providers.close();
      await stores.database.close();
      await rm(folder, { recursive: true, force: true });
    },
  };
}

/** A target already running at `url` (its `/v1` base or its origin), called with `apiKey`. */
export function urlTarget(kind: TargetKind, url: string, apiKey: string): FuzzTarget {
  return { kind, origin: new URL(url).origin, apiKey, wrongKey: WRONG_KEY, ...(kind === 'mock' ? mockTraits : serverTraits), stop: async () => {} };
}

export function startTarget(kind: TargetKind): Promise<FuzzTarget> {
  return kind === 'mock' ? startMockTarget() : startServerTarget();
}
