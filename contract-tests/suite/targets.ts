/**
 * The targets the shared cases run against, each started by the suite on a free loopback port:
 * the mock (`npm run mock`); the real server with a sandbox key; the real server with a live key,
 * whose web operations fetch the local test site for real; and the real server with a live key
 * and its upstream adapters configured (SEARXNG_URL, OPENAI_BASE_URL, YAHOO_FINANCE_URL, TIKTOK_URL, MEETUP_ACCESS_TOKEN, X_BEARER_TOKEN) against fakes on loopback;
 * and the real server with a sandbox key on PostgreSQL (DATABASE_URL on the tests' private cluster).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { OperationId } from '../../generated/operations.ts';
import type { NewKeyOptions } from '../../server/store/api-keys.ts';
import { openStores } from '../../server/store/index.ts';
import type { PostgresCluster } from '../../server/test-support/postgres-cluster.ts';
import { startTestSite } from '../../server/test-support/test-site.ts';
import { startFakeMeetup, startFakeModel, startFakeSearxng, startFakeTiktok, startFakeX, startFakeYahoo, X_FAKE_TOKEN } from './upstream-fakes.ts';

export type TargetName = 'mock' | 'server' | 'server-live' | 'server-upstreams' | 'server-postgres';

/** What the suite's global setup starts for the targets: the private PostgreSQL cluster, which only the PostgreSQL target waits for. */
export interface TargetContext {
  postgres: Promise<PostgresCluster>;
}

/**
 * Keys in a given state, for the cases of authentication, scope, billing and rate limits. Only a
 * target with real keys has them; the mock accepts any key and selects errors with `Prefer`.
 */
export type KeyRole = 'invalid' | 'revoked' | 'expired' | 'financeOnly' | 'noCredits' | 'rateLimited';

/** The origin the cases' URLs are written with; a target that fetches for real gets its own site's instead. */
export const CASE_SITE_ORIGIN = 'https://example.com';

/**
 * Operations a live key has no provider for without upstream adapters: the built-in web provider
 * serves scrape, map, crawl and batch scrape (providers/build-providers.ts, defaultRoutes); jobs
 * and monitors are the key's own. A valid request to one of these answers 503 provider_unavailable, uncharged.
 */
const WITHOUT_LIVE_PROVIDER: OperationId[] = ['searchWeb', 'extractWebData', 'runWebAgent', 'listCollectionVideos', 'getPriceHistory', 'getMicroblogPost', 'listSocialEvents'];

/**
 * Operations a live key has no provider for even with every adapter configured: none. Every
 * operation has an adapter, here on a fake in upstream-fakes.ts (short video: tiktok,
 * finance/history: yahoo, social events: meetup, microblog: x).
 */
const WITHOUT_UPSTREAM_ADAPTER: OperationId[] = [];

export interface RunningTarget {
  name: TargetName;
  /** Base URL including `/v1`. */
  baseUrl: string;
  /** A key the target accepts, with credits for the whole suite. */
  apiKey: string;
  /** Stands in for CASE_SITE_ORIGIN in the URLs the cases send. */
  siteOrigin: string;
  /** Operations whose valid request answers 503 provider_unavailable on this target. */
  unavailable: OperationId[];
  /** Keys in each state the target can give. */
  keys: Partial<Record<KeyRole, string>>;
  stop(): Promise<void>;
}

const projectRoot = fileURLToPath(new URL('../..', import.meta.url));
/**
 * A guard against a target that never starts, not a speed check (bench:mock measures cold start):
 * all targets start at once in global setup, and on a busy 2-core machine a cold mock took over 20 s.
 */
const STARTUP_TIMEOUT_MS = 90_000;

/** Starts `node <entry>` with PORT=0 and waits for its "listening on http://…/v1" line. */
async function startProcess(name: TargetName, entry: string, apiKey: string, env: Record<string, string> = {}): Promise<RunningTarget> {
  const child: ChildProcess = spawn(process.execPath, [entry], {
    cwd: projectRoot,
    env: { ...process.env, ...env, PORT: '0', HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let startupOutput = '';
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start within ${STARTUP_TIMEOUT_MS} ms:\n${startupOutput}`)), STARTUP_TIMEOUT_MS);
    const onOutput = (chunk: Buffer) => {
      startupOutput += chunk.toString();
      const match = /listening on (http:\/\/\S+\/v1)/.exec(startupOutput);
      if (match) {
        clearTimeout(timer);
        child.stdout!.off('data', onOutput);
        child.stderr!.off('data', onOutput);
        resolve(match[1]!);
      }
    };
    child.stdout!.on('data', onOutput);
    child.stderr!.on('data', onOutput);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited with ${code} before listening:\n${startupOutput}`));
    });
  });
  // The target logs a line per request: drain its output so it never blocks on a full pipe.
  child.stdout!.resume();
  child.stderr!.resume();
  return {
    name,
    baseUrl,
    apiKey,
    siteOrigin: CASE_SITE_ORIGIN,
    unavailable: [],
    keys: {},
    async stop() {
      if (child.exitCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const [code] = (await exited) as [number | null];
      if (code !== 0) throw new Error(`${name} exited with ${code} on SIGTERM`);
    },
  };
}

/** What a target's keys are issued with: the options of `key:create`, as the key store takes them. */
type KeyOptions = Omit<NewKeyOptions, 'credits'>;

/**
 * The target's keys, issued on its database through the key store, as `key:create` and
 * `key:revoke` do (server/cli/keys.test.ts holds those commands to it): a main key and a key in
 * each state of KeyRole. In this process, not one key command process per key: those were 28
 * Node start-ups before the first case could run.
 */
async function issueKeys(databaseUrl: string, mode: KeyOptions, name: string): Promise<{ apiKey: string; keys: Record<KeyRole, string>; spendRateLimited(baseUrl: string): Promise<void> }> {
  const stores = await openStores(databaseUrl);
  try {
    const now = Date.now();
    const main = await stores.keys.create({ credits: 1_000_000, name, ...mode });
    const revoked = await stores.keys.create({ credits: 100, ...mode });
    // Expired a second before it was issued (key:create only issues keys that expire later): the cases need not wait for it.
    const expired = await stores.keys.create({ credits: 100, expiresAt: new Date(now - 1000).toISOString(), ...mode });
    const financeOnly = await stores.keys.create({ credits: 100, scopes: ['finance'], ...mode });
    const noCredits = await stores.keys.create({ credits: 0, ...mode });
    // One request per ten years: windows are fixed (aligned to the epoch), so a shorter one could
    // reset while the suite runs and let a case through.
    const rateLimited = await stores.keys.create({ credits: 100, rateLimit: { requests: 1, windowSeconds: 315_360_000 }, ...mode });
    await stores.keys.revoke(revoked.key.id);
    const keys = { invalid: 'wsdq_live_00000000000000000000000000000000', revoked: revoked.secret, expired: expired.secret, financeOnly: financeOnly.secret, noCredits: noCredits.secret, rateLimited: rateLimited.secret };
    return {
      apiKey: main.secret,
      keys,
      // The rate-limited key's one request, spent before the cases run.
      async spendRateLimited(baseUrl) {
        const answer = await fetch(`${baseUrl}/web/jobs`, { headers: { 'x-api-key': rateLimited.secret } });
        await answer.text();
        if (answer.status !== 200) throw new Error(`the rate-limited key's first request answered ${answer.status}`);
      },
    };
  } finally {
    await stores.database.close();
  }
}

/** What runs beside a live server: the test site its web operations fetch, and the fake upstreams of its adapters. */
async function liveSurroundings(mode: 'live' | 'upstreams'): Promise<{ env: Record<string, string>; siteOrigin: string; unavailable: OperationId[]; close(): Promise<void> }> {
  const site = await startTestSite();
  if (mode === 'live') return { env: {}, siteOrigin: site.origin, unavailable: WITHOUT_LIVE_PROVIDER, close: () => site.close() };
  const [searxng, model, tiktok, yahoo, meetup, x] = await Promise.all([startFakeSearxng(), startFakeModel(), startFakeTiktok(), startFakeYahoo(), startFakeMeetup(), startFakeX()]);
  return {
    env: {
      SEARXNG_URL: searxng.baseUrl, OPENAI_BASE_URL: `${model.baseUrl}/v1`, OPENAI_MODEL: 'contract-suite-model', TIKTOK_URL: tiktok.baseUrl, YAHOO_FINANCE_URL: yahoo.baseUrl,
      MEETUP_API_URL: `${meetup.baseUrl}/gql-ext`, MEETUP_ACCESS_TOKEN: 'contract-suite-meetup-token', X_BEARER_TOKEN: X_FAKE_TOKEN, X_API_URL: x.baseUrl,
    },
    siteOrigin: site.origin,
    unavailable: WITHOUT_UPSTREAM_ADAPTER,
    async close() {
      await Promise.all([site.close(), searxng.close(), model.close(), tiktok.close(), yahoo.close(), meetup.close(), x.close()]);
    },
  };
}

/**
 * The real server on a database of its own in a temporary folder, with a key issued through the
 * key store as `key:create` (the command operators use) issues it, and a rate limit the suite
 * cannot reach. A sandbox key answers from the sandbox provider; a live key fetches for real, here
 * from the local test site (ALLOW_PRIVATE_NETWORK lets it reach loopback), and with `upstreams`
 * searches and asks a model through the adapters, on fakes (their base URLs are trusted
 * configuration: no ALLOW_PRIVATE_NETWORK needed for them). Keys in each KeyRole state come with it.
 */
async function startServer(name: TargetName, mode: 'sandbox' | 'live' | 'upstreams', databaseUrl?: string): Promise<RunningTarget> {
  const folder = await mkdtemp(join(tmpdir(), 'contract-server-'));
  const live = mode === 'sandbox' ? undefined : await liveSurroundings(mode);
  // The job runner ticks at its default 100 ms: the targets live for the whole vitest run, and a
  // 20 ms tick cost each idle server ~15 ms of CPU a second more (~6 s of CPU over a full run of
  // four servers), while the cases that wait for a job poll it every 100 ms anyway.
  const env = { DATABASE_URL: databaseUrl ?? join(folder, 'service.sqlite'), RATE_LIMIT: '1000000/60', LOG_LEVEL: 'warn', ...(live ? { ALLOW_PRIVATE_NETWORK: 'true', ...live.env } : {}) };
  const roles = await issueKeys(env.DATABASE_URL, { sandbox: mode === 'sandbox' }, `contract suite (${mode})`);
  const target = await startProcess(name, 'server/main.ts', roles.apiKey, env);
  await roles.spendRateLimited(target.baseUrl);
  return {
    ...target,
    keys: roles.keys,
    ...(live ? { siteOrigin: live.siteOrigin, unavailable: live.unavailable } : {}),
    async stop() {
      await target.stop();
      await live?.close();
      await rm(folder, { recursive: true, force: true });
    },
  };
}

const starters: Record<TargetName, (context: TargetContext) => Promise<RunningTarget>> = {
  mock: () => startProcess('mock', 'mock/main.ts', 'any-key-the-mock-accepts'),
  server: () => startServer('server', 'sandbox'),
  'server-live': () => startServer('server-live', 'live'),
  'server-upstreams': () => startServer('server-upstreams', 'upstreams'),
  'server-postgres': async ({ postgres }) => startServer('server-postgres', 'sandbox', await (await postgres).createDatabase('contract_suite')),
};

/** The targets to run: `CONTRACT_TARGETS` (comma-separated) or all of them. */
export function selectedTargets(): TargetName[] {
  const all = Object.keys(starters) as TargetName[];
  const wanted = process.env.CONTRACT_TARGETS?.split(',').map((name) => name.trim()).filter(Boolean);
  if (!wanted) return all;
  const unknown = wanted.filter((name) => !all.includes(name as TargetName));
  if (unknown.length > 0) throw new Error(`CONTRACT_TARGETS names unknown targets: ${unknown.join(', ')} (known: ${all.join(', ')})`);
  return wanted as TargetName[];
}

export function startTarget(name: TargetName, context: TargetContext): Promise<RunningTarget> {
  return starters[name](context);
}
