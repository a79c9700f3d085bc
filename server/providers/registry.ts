/**
 * Which provider answers an operation for a key: the built-in sandbox for sandbox keys; for live
 * keys, the provider the configuration routes the operation to, if any (none means 503).
 */
import type { OperationId } from '../../generated/operations.ts';
import type { ApiKey } from '../store/api-keys.ts';
import { ConfigError } from '../config.ts';
import type { DataProvider } from './types.ts';

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
  providerFor(key: ApiKey, operationId: OperationId): DataProvider | undefined {
    if (key.sandbox) return this.sandbox;
    const name = this.routes[operationId];
    return name ? this.providers[name] : undefined;
  }

  /** Whether jobs of `operationId` can run for this key: on the sandbox, or on a live provider routed to it. */
  runsJobs(key: ApiKey, operationId: OperationId): boolean {
    return key.sandbox || this.routes[operationId] !== undefined;
  }
}
