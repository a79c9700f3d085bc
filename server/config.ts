/**
 * The server's configuration, read once from the environment into a typed object. A bad value
 * stops start-up with a message naming the variable.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { isIP } from 'node:net';
import type { OperationId } from '../generated/operations.ts';
import { parseCorsOrigins, type CorsOrigins } from '../lib/cors.ts';
import { ConfigError } from './config-error.ts';
import { isPostgresUrl, postgresUrlProblem, shownDatabaseUrl } from './store/database-url.ts';
import { braveConfig, type BraveConfig } from './providers/brave/config.ts';
import { firecrawlConfig, type FirecrawlConfig } from './providers/firecrawl/config.ts';
import { meetupConfig, type MeetupConfig } from './providers/meetup/config.ts';
import { fxtwitterConfig, type FxTwitterConfig } from './providers/fxtwitter/config.ts';
import { openaiConfig, type OpenAiConfig } from './providers/openai/config.ts';
import { searxngConfig, type SearxngConfig } from './providers/searxng/config.ts';
import { tiktokConfig, type TiktokConfig } from './providers/tiktok/config.ts';
import { twelveDataConfig, type TwelveDataConfig } from './providers/twelvedata/config.ts';
import { yahooConfig, type YahooConfig } from './providers/yahoo/config.ts';
import { PROVIDER_OPERATION_IDS } from './providers/types.ts';
import { xConfig, type XConfig } from './providers/x/config.ts';

export interface RateLimitPolicy {
  requests: number;
  windowSeconds: number;
}

/** The upstream adapters' settings, each read by the adapter's own reader; null where its variables are unset (the adapter is off). */
export interface UpstreamConfigs {
  searxng: SearxngConfig | null;
  brave: BraveConfig | null;
  firecrawl: FirecrawlConfig | null;
  openai: OpenAiConfig | null;
  tiktok: TiktokConfig | null;
  yahoo: YahooConfig | null;
  twelvedata: TwelveDataConfig | null;
  meetup: MeetupConfig | null;
  x: XConfig | null;
  fxtwitter: FxTwitterConfig | null;
}

export interface ServerConfig {
  port: number;
  host: string;
  /** SQLite file, `:memory:`, or a PostgreSQL URL (postgres:// or postgresql://). */
  databaseUrl: string;
  /** Default per-key policy; a key may carry its own. */
  rateLimit: RateLimitPolicy;
  /** `PROVIDER_ROUTES`: the operator's routes of live keys, over the default ones (providers/build-providers.ts). */
  providerRoutes: Partial<Record<OperationId, string>>;
  /** The upstreams the adapters call (SearXNG, Brave, Firecrawl, a model server, X, FxTwitter); an adapter is built when its variables are set. */
  upstreams: UpstreamConfigs;
  /** Lets user-given URLs reach private and loopback addresses (intranet deployments, tests). */
  allowPrivateNetwork: boolean;
  /** Headless Chromium for `wait_for` and screenshots, or null when none is configured. */
  chromiumPath: string | null;
  /** Checks every answer's headers against the contract (development and test). */
  checkResponseHeaders: boolean;
  logLevel: LogLevel;
  /** How often the job runner advances active jobs, in milliseconds. */
  jobTickMs: number;
  /** How long a claim on a job, monitor check or webhook delivery lasts unless renewed (another instance takes the work over after it), in milliseconds. */
  leaseMs: number;
  /** Origins allowed to call from a browser (`CORS_ORIGINS`), or null for no CORS. */
  corsOrigins: CorsOrigins | null;
  /** Where callers reach the service behind a proxy (error links point there), or null: the address each caller used. */
  publicBaseUrl: string | null;
}

export { ConfigError };

/** pino's levels; `silent` logs nothing. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export const NODE_ENVS = ['production', 'development', 'test'] as const;

function oneOf<T extends string>(env: NodeJS.ProcessEnv, name: string, allowed: readonly T[], fallback: T): T {
  const text = env[name];
  if (text === undefined || text === '') return fallback;
  if (!allowed.includes(text as T)) throw new ConfigError(`${name} must be one of ${allowed.join(', ')}, got "${text}"`);
  return text as T;
}

const HOST_NAME = /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i;

/** An IP address, or a name that could resolve: labels of letters, digits and hyphens, the last not all digits (so 999.1.1.1 is neither). */
function host(env: NodeJS.ProcessEnv): string {
  const text = env.HOST;
  if (text === undefined || text === '') return '127.0.0.1';
  if (isIP(text) !== 0) return text;
  if (HOST_NAME.test(text) && !/^\d+$/.test(text.split('.').at(-1)!)) return text;
  throw new ConfigError(`HOST must be an IP address of this machine (such as 127.0.0.1, 0.0.0.0 or ::) or a host name, got "${text}"`);
}

/** A SQLite file path, `:memory:`, or a PostgreSQL URL; a URL of another database is refused, and no URL is echoed with its password. */
export function databaseUrl(env: NodeJS.ProcessEnv): string {
  const text = env.DATABASE_URL;
  if (text === undefined || text === '') return './data/wsdq.sqlite';
  if (text === ':memory:') return text;
  if (isPostgresUrl(text)) {
    const problem = postgresUrlProblem(text);
    if (problem) throw new ConfigError(`DATABASE_URL is not a PostgreSQL URL the service can use: ${problem}, got "${shownDatabaseUrl(text)}"`);
    return text;
  }
  const scheme = /^([a-z][a-z0-9+.-]+):/i.exec(text)?.[1];
  if (scheme) throw new ConfigError(`DATABASE_URL must be a SQLite file path, :memory:, or a postgres:// or postgresql:// URL, got a ${scheme}: URL`);
  if (statSync(text, { throwIfNoEntry: false })?.isDirectory()) throw new ConfigError(`DATABASE_URL must be a file path, got the directory "${text}" (such as ${text.replace(/\/$/, '')}/wsdq.sqlite)`);
  return text;
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const text = env[name];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < min || value > max) throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got "${text}"`);
  return value;
}

function executable(env: NodeJS.ProcessEnv, name: string): string | null {
  const path = env[name];
  if (!path) return null;
  try {
    accessSync(path, constants.X_OK);
  } catch {
    throw new ConfigError(`${name} must name an executable file, got "${path}"`);
  }
  return path;
}

function booleanFlag(env: NodeJS.ProcessEnv, name: string): boolean {
  const text = env[name];
  if (text === undefined || text === '' || text === 'false') return false;
  if (text === 'true') return true;
  throw new ConfigError(`${name} must be true or false, got "${text}"`);
}

/** An http(s) URL under which `/v1` and `/docs` are served, without a trailing slash. */
function publicBaseUrl(env: NodeJS.ProcessEnv): string | null {
  const text = env.PUBLIC_BASE_URL;
  if (!text) return null;
  const url = URL.canParse(text) ? new URL(text) : null;
  if (!url || !/^https?:$/.test(url.protocol) || url.username || url.password || /[?#]/.test(text) || /\/v1\/?$/.test(url.pathname)) {
    throw new ConfigError(`PUBLIC_BASE_URL must be the http or https URL under which /v1 and /docs are served, such as https://api.example.com, got "${text}"`);
  }
  return url.href.replace(/\/+$/, '');
}

/** `120/60`: requests per window of seconds. */
export function parseRateLimit(text: string, name: string): RateLimitPolicy {
  const match = /^(\d+)\/(\d+)$/.exec(text.trim());
  const requests = Number(match?.[1]);
  const windowSeconds = Number(match?.[2]);
  if (!match || requests < 1 || windowSeconds < 1) throw new ConfigError(`${name} must be REQUESTS/SECONDS with both at least 1, such as 120/60, got "${text}"`);
  return { requests, windowSeconds };
}

function providerRoutes(env: NodeJS.ProcessEnv): ServerConfig['providerRoutes'] {
  const text = env.PROVIDER_ROUTES;
  if (!text) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ConfigError(`PROVIDER_ROUTES must be a JSON object of operationId to provider name, got "${text}"`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ConfigError(`PROVIDER_ROUTES must be a JSON object of operationId to provider name, got "${text}"`);
  }
  for (const [operationId, provider] of Object.entries(parsed)) {
    if (!PROVIDER_OPERATION_IDS.includes(operationId as OperationId)) {
      throw new ConfigError(`PROVIDER_ROUTES has "${operationId}", which is not an operation a provider serves (operations: ${PROVIDER_OPERATION_IDS.join(', ')})`);
    }
    if (typeof provider !== 'string' || provider === '') throw new ConfigError(`PROVIDER_ROUTES routes ${operationId} to ${JSON.stringify(provider)}; a route is a provider's name, such as "web"`);
  }
  return parsed as ServerConfig['providerRoutes'];
}

function corsOrigins(env: NodeJS.ProcessEnv): CorsOrigins | null {
  try {
    return parseCorsOrigins(env.CORS_ORIGINS);
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
}

/** Reads the configuration; throws ConfigError naming the first bad variable. */
export function readConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const routes = providerRoutes(env);
  return {
    port: integer(env, 'PORT', 3000, 0, 65535),
    host: host(env),
    databaseUrl: databaseUrl(env),
    rateLimit: parseRateLimit(env.RATE_LIMIT || '120/60', 'RATE_LIMIT'),
    providerRoutes: routes,
    upstreams: { searxng: searxngConfig(env), brave: braveConfig(env), firecrawl: firecrawlConfig(env), openai: openaiConfig(env), yahoo: yahooConfig(env, routes), twelvedata: twelveDataConfig(env), tiktok: tiktokConfig(env, routes), meetup: meetupConfig(env), x: xConfig(env), fxtwitter: fxtwitterConfig(env) },
    allowPrivateNetwork: booleanFlag(env, 'ALLOW_PRIVATE_NETWORK'),
    chromiumPath: executable(env, 'CHROMIUM_PATH'),
    checkResponseHeaders: oneOf(env, 'NODE_ENV', NODE_ENVS, 'development') !== 'production',
    logLevel: oneOf(env, 'LOG_LEVEL', LOG_LEVELS, 'info'),
    jobTickMs: integer(env, 'JOB_TICK_MS', 100, 10, 60_000),
    leaseMs: integer(env, 'LEASE_MS', 30_000, 500, 600_000),
    corsOrigins: corsOrigins(env),
    publicBaseUrl: publicBaseUrl(env),
  };
}
