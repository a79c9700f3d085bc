/**
 * The one place that decides which provider serves an operation for a key, for calls, jobs and
 * monitor checks alike: the built-in sandbox for sandbox keys; for live keys, the provider the
 * configuration routes the operation to, if any (none means 503). Nothing else asks whether a key
 * is a sandbox key to choose where data comes from.
 */
import type { OperationId } from '../../generated/operations.ts';
import type { ApiKey } from '../store/api-keys.ts';
import type { Job } from '../store/jobs.ts';
import { ConfigError } from '../config-error.ts';
import { PROVIDER_OPERATION_IDS, type DataProvider } from './types.ts';

/** A key as the registry reads it: only whether it is a sandbox key (a job record carries the same flag). */
export type KeyKind = Pick<ApiKey, 'sandbox'>;

/** The operation a job of each kind was submitted as: the one its provider is routed under. */
export const JOB_OPERATION: Record<Job['kind'], OperationId> = { crawl: 'crawlWebsite', batch_scrape: 'batchScrapeWebPages', agent: 'runWebAgent' };

/** Where an agent job reads the pages it opens: the page source routed for `web/scrape`, as monitor checks do. */
export const AGENT_PAGES_OPERATION: OperationId = 'scrapeWebPage';

export class ProviderRegistry {
  private readonly routes: Partial<Record<OperationId, string>>;
  private readonly providers: Record<string, DataProvider>;
  private readonly sandbox: DataProvider;

  /** Fails with a ConfigError when a route names a provider that does not exist. */
  constructor(routes: Partial<Record<OperationId, string>>, providers: Record<string, DataProvider>, sandbox: DataProvider) {
    for (const [operationId, name] of Object.entries(routes)) {
      if (!providers[name!]) throw new ConfigError(`PROVIDER_ROUTES routes ${operationId} to "${name}", which is not a provider (known: ${Object.keys(providers).join(', ') || 'none'})`);
    }
    this.routes = routes;
    this.providers = providers;
    this.sandbox = sandbox;
  }

  /** The provider of `operationId` for `key`, or undefined when none is configured. */
  providerFor(key: KeyKind, operationId: OperationId): DataProvider | undefined {
    if (key.sandbox) return this.sandbox;
    const name = this.routes[operationId];
    return name ? this.providers[name] : undefined;
  }

  /**
   * Whether jobs of `operationId` can run for this key: its provider supplies pages (crawl, batch
   * scrape), or an agent (`runWebAgent`) with a page source to read from under AGENT_PAGES_OPERATION.
   */
  runsJobs(key: KeyKind, operationId: OperationId): boolean {
    const provider = this.providerFor(key, operationId);
    if (operationId !== 'runWebAgent') return provider?.pages !== undefined;
    return provider?.agent !== undefined && this.providerFor(key, AGENT_PAGES_OPERATION)?.pages !== undefined;
  }

  /** For a live key, the name of the provider serving each operation a provider can serve, or null where it answers 503 (no route, or a job's provider lacks `pages` or `agent`). */
  liveServing(): Record<string, string | null> {
    const live = { sandbox: false };
    return Object.fromEntries(PROVIDER_OPERATION_IDS.map((operationId) => {
      const serves = Object.values(JOB_OPERATION).includes(operationId) ? this.runsJobs(live, operationId) : this.providerFor(live, operationId) !== undefined;
      return [operationId, serves ? this.routes[operationId]! : null];
    }));
  }

  /** Closes every provider's connections (at shutdown); a provider that fails to close does not keep the others open. */
  async close(): Promise<void> {
    await Promise.allSettled(Object.values(this.providers).map((provider) => provider.close?.()));
  }
}
