/**
 * The targets the shared cases run against, each started by the suite on a free loopback port:
 * the mock (`npm run mock`); the real server with a sandbox key; and the real server with a live
 * key, whose web operations fetch the local test site for real.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { OperationId } from '../../generated/operations.ts';
import { startTestSite } from '../../server/test-support/test-site.ts';

export type TargetName = 'mock' | 'server' | 'server-live';

/** The origin the cases' URLs are written with; a target that fetches for real gets its own site's instead. */
export const CASE_SITE_ORIGIN = 'https://example.com';

/**
 * Operations a live key has no provider for yet: the built-in web provider serves scrape, map,
 * crawl and batch scrape (server/config.ts, DEFAULT_PROVIDER_ROUTES); jobs and monitors are the
 * key's own. A valid request to one of these answers 503 provider_unavailable, uncharged.
 */
const WITHOUT_LIVE_PROVIDER: OperationId[] = ['searchWeb', 'extractWebData', 'runWebAgent', 'listCollectionVideos', 'getPriceHistory', 'getMicroblogPost', 'listSocialEvents'];

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
  stop(): Promise<void>;
}

const projectRoot = fileURLToPath(new URL('../..', import.meta.url));
const STARTUP_TIMEOUT_MS = 20_000;

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
    async stop() {
      if (child.exitCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const [code] = (await exited) as [number | null];
      if (code !== 0) throw new Error(`${name} exited with ${code} on SIGTERM`);
    },
  };
}

const run = promisify(execFile);

/**
 * The real server on a database of its own in a temporary folder, with a key issued by
 * `key:create` (the command operators use) and a rate limit the suite cannot reach. A sandbox key
 * answers from the sandbox provider; a live key fetches for real, here from the local test site
 * (ALLOW_PRIVATE_NETWORK lets it reach loopback).
 */
async function startServer(name: TargetName, mode: 'sandbox' | 'live'): Promise<RunningTarget> {
  const folder = await mkdtemp(join(tmpdir(), 'contract-server-'));
  const site = mode === 'live' ? await startTestSite() : undefined;
  const env = { DATABASE_URL: join(folder, 'service.sqlite'), RATE_LIMIT: '1000000/60', JOB_TICK_MS: '20', LOG_LEVEL: 'warn', ...(site ? { ALLOW_PRIVATE_NETWORK: 'true' } : {}) };
  const keyOptions = ['--credits', '1000000', '--name', `contract suite (${mode})`, ...(mode === 'sandbox' ? ['--sandbox'] : [])];
  const created = await run(process.execPath, ['server/cli/keys.ts', 'create', ...keyOptions], { cwd: projectRoot, env: { ...process.env, ...env } });
  const apiKey = created.stdout.trim().split('\n').at(-1)!;
  const target = await startProcess(name, 'server/main.ts', apiKey, env);
  return {
    ...target,
    ...(site ? { siteOrigin: site.origin, unavailable: WITHOUT_LIVE_PROVIDER } : {}),
    async stop() {
      await target.stop();
      await site?.close();
      await rm(folder, { recursive: true, force: true });
    },
  };
}

const starters: Record<TargetName, () => Promise<RunningTarget>> = {
  mock: () => startProcess('mock', 'mock/main.ts', 'any-key-the-mock-accepts'),
  server: () => startServer('server', 'sandbox'),
  'server-live': () => startServer('server-live', 'live'),
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

export function startTarget(name: TargetName): Promise<RunningTarget> {
  return starters[name]();
}
