/** The web provider as main.ts builds it, on its own guarded agent and the worker's shared conversion pool, for tests; `close()` ends the agent. */
import type { AddressPolicy } from '../outbound/address-policy.ts';
import type { FetchLimits } from '../outbound/fetch-page.ts';
import { guardedAgent, type Resolver } from '../outbound/guarded-agent.ts';
import type { DataProvider } from '../providers/types.ts';
import type { HeadlessBrowser } from '../providers/web/browser.ts';
import { createWebProvider } from '../providers/web/index.ts';
import { sharedConversionPool } from './shared-conversion-pool.ts';

export interface TestWebProviderOptions {
  policy: AddressPolicy;
  limits?: Partial<FetchLimits>;
  browser?: HeadlessBrowser;
  /** Name resolution for the guarded agent (node:dns by default). */
  resolve?: Resolver;
}

export function testWebProvider(options: TestWebProviderOptions): DataProvider & { close(): Promise<void> } {
  const agent = guardedAgent(options.policy, options.resolve);
  const pool = sharedConversionPool();
  const provider = createWebProvider({ policy: options.policy, agent, pool, ...(options.limits ? { limits: options.limits } : {}), ...(options.browser ? { browser: options.browser } : {}) });
  return {
    ...provider,
    async close() {
      await agent.destroy();
    },
  };
}
