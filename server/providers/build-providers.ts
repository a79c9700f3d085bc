/**
 * The providers of live keys and their routes, built the one way `npm start` (main.ts) and the
 * tests' server (test-support/test-server.ts) both use: the web provider as given, each upstream
 * adapter whose variables are set, the default routes for what is built, `PROVIDER_ROUTES` over
 * them; and one start-up log line saying which provider serves each operation and which answer 503.
 */
import type { Logger } from 'pino';
import type { OperationId } from '../../generated/operations.ts';
import type { UpstreamConfigs } from '../config.ts';
import { createBraveProvider } from './brave/index.ts';
import { createFirecrawlProvider } from './firecrawl/index.ts';
import { createMeetupProvider } from './meetup/index.ts';
import { createFxTwitterProvider } from './fxtwitter/index.ts';
import { createOpenAiAdapter } from './openai/index.ts';
import { noPageReader, readPageThrough } from './read-page.ts';
import { ProviderRegistry } from './registry.ts';
import { sandboxProvider } from './sandbox/index.ts';
import { createSearxngProvider } from './searxng/index.ts';
import { createTiktokProvider } from './tiktok/index.ts';
import { createTwelveDataProvider } from './twelvedata/index.ts';
import { createYahooProvider } from './yahoo/index.ts';
import type { DataProvider } from './types.ts';
import { createXProvider } from './x/index.ts';

type Routes = Partial<Record<OperationId, string>>;

export interface ProviderOptions {
  /** The built-in web provider (main.ts always builds it); it also reads pages for the adapters, under the address policy. */
  web?: DataProvider;
  /** The upstreams whose variables are set (config.ts); an absent or null one is not built. */
  upstreams?: Partial<UpstreamConfigs>;
  /** `PROVIDER_ROUTES`: over the default routes. */
  routes?: Routes;
  /** Providers of the tests, beside the built ones, reached through `routes`. */
  extra?: Record<string, DataProvider>;
  logger: Logger;
}

/** `web/search` goes to the first search adapter configured, in this order. */
const SEARCH_ADAPTERS = ['searxng', 'brave', 'firecrawl'] as const;
const WEB_OPERATIONS: OperationId[] = ['scrapeWebPage', 'mapWebsite', 'crawlWebsite', 'batchScrapeWebPages'];
const MODEL_OPERATIONS: OperationId[] = ['extractWebData', 'runWebAgent'];
/** `finance/history` goes to the first finance adapter built, in this order. */
const FINANCE_ADAPTERS = ['yahoo', 'twelvedata'] as const;
/** `microblog/post` goes to the first microblog adapter configured: the official API before FxTwitter. */
const MICROBLOG_ADAPTERS = ['x', 'fxtwitter'] as const;

/** Each adapter whose configuration is set, by its name. */
function adapters(options: ProviderOptions): Record<string, DataProvider> {
  const { upstreams = {}, logger } = options;
  const readPage = options.web ? readPageThrough(options.web) : noPageReader;
  const built: Record<string, DataProvider> = {};
  if (upstreams.searxng) built.searxng = createSearxngProvider(upstreams.searxng, { logger, readPage });
  if (upstreams.brave) built.brave = createBraveProvider(upstreams.brave, { logger, readPage });
  if (upstreams.firecrawl) built.firecrawl = createFirecrawlProvider(upstreams.firecrawl, { logger, readPage });
  if (upstreams.tiktok) built.tiktok = createTiktokProvider(upstreams.tiktok, { logger });
  if (upstreams.yahoo) built.yahoo = createYahooProvider(upstreams.yahoo, { logger });
  if (upstreams.twelvedata) built.twelvedata = createTwelveDataProvider(upstreams.twelvedata, { logger });
  if (upstreams.meetup) built.meetup = createMeetupProvider(upstreams.meetup, { logger });
  if (upstreams.x) built.x = createXProvider(upstreams.x, { logger });
  if (upstreams.fxtwitter) built.fxtwitter = createFxTwitterProvider(upstreams.fxtwitter, { logger });
  if (upstreams.openai) {
    const openai = createOpenAiAdapter(upstreams.openai, { logger, readPage });
    built.openai = Object.assign(openai.provider, { close: openai.close });
  }
  return built;
}

/** The routes of live keys when `PROVIDER_ROUTES` says nothing: each operation to the provider built for it, if any. */
export function defaultRoutes(built: readonly string[]): Routes {
  const routes: Routes = {};
  if (built.includes('web')) for (const operationId of WEB_OPERATIONS) routes[operationId] = 'web';
  const search = SEARCH_ADAPTERS.find((name) => built.includes(name));
  if (search) routes.searchWeb = search;
  const microblog = MICROBLOG_ADAPTERS.find((name) => built.includes(name));
  if (microblog) routes.getMicroblogPost = microblog;
  if (built.includes('openai')) for (const operationId of MODEL_OPERATIONS) routes[operationId] = 'openai';
  const finance = FINANCE_ADAPTERS.find((name) => built.includes(name));
  if (finance) routes.getPriceHistory = finance;
  if (built.includes('tiktok')) routes.listCollectionVideos = 'tiktok';
  if (built.includes('meetup')) routes.listSocialEvents = 'meetup';
  return routes;
}

/** The registry over the built providers; a ConfigError when a route names a provider that is not built (the adapters built are closed first). */
export function buildProviders(options: ProviderOptions): ProviderRegistry {
  const built: Record<string, DataProvider> = { ...(options.web ? { web: options.web } : {}), ...adapters(options) };
  const providers = { ...built, ...options.extra };
  const routes = { ...defaultRoutes(Object.keys(built)), ...options.routes };
  let registry: ProviderRegistry;
  try {
    registry = new ProviderRegistry(routes, providers, sandboxProvider);
  } catch (error) {
    void Promise.allSettled(Object.values(providers).map((provider) => provider.close?.()));
    throw error;
  }
  logServing(registry, options.logger);
  return registry;
}

/** One info line: `live keys: scrapeWebPage → web, searchWeb → searxng, …; 503 provider_unavailable: getPriceHistory, …`. */
function logServing(registry: ProviderRegistry, logger: Logger): void {
  const serving = registry.liveServing();
  const served = Object.entries(serving).filter(([, name]) => name !== null).map(([operationId, name]) => `${operationId} → ${name}`);
  const unavailable = Object.entries(serving).filter(([, name]) => name === null).map(([operationId]) => operationId);
  logger.info({ providers: serving }, `live keys: ${served.join(', ') || 'no operation served'}; 503 provider_unavailable: ${unavailable.join(', ') || 'none'}`);
}
