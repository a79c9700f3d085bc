/** What an operation handler gets and gives. */
import type { OperationRow } from '../../generated/operations.ts';
import type { Clock } from '../clock.ts';
import type { Call } from '../gateway/call.ts';
import type { UpstreamErrorObserver } from '../operator/metrics.ts';
import type { ProviderRegistry } from '../providers/registry.ts';
import type { AddressPolicy } from '../outbound/address-policy.ts';
import type { ApiKey } from '../store/api-keys.ts';
import type { Stores } from '../store/index.ts';

export interface Dependencies {
  stores: Stores;
  providers: ProviderRegistry;
  clock: Clock;
  /** Where a provider's failure is counted (the service's metrics). */
  metrics: UpstreamErrorObserver;
  /** Which addresses user-given URLs (pages, webhook_url) may target. */
  addressPolicy: AddressPolicy;
}

export interface OperationContext {
  operation: OperationRow;
  call: Call;
  key: ApiKey;
  /** Query parameters as validated (and typed) by the contract validator. */
  query: Record<string, unknown>;
  body: Record<string, any> | undefined;
  params: Record<string, string>;
  /** Aborted when the caller hangs up. */
  signal: AbortSignal;
  deps: Dependencies;
}

export interface OperationHandler {
  /**
   * Refuses what the contract's schemas cannot express (rules across parameters) and what this
   * deployment cannot serve, before any credit is drawn.
   */
  check?(context: OperationContext): Promise<void> | void;
  /** The operation's `data`. */
  run(context: OperationContext): Promise<Record<string, unknown>> | Record<string, unknown>;
}
