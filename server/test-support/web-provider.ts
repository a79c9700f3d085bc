/** The web provider as main.ts builds it, on its own guarded agent and conversion pool, for tests; `close()` ends both. */
import type { AddressPolicy } from '../outbound/address-policy.ts';
import type { FetchLimits } from '../outbound/fetch-page.ts';
import { guardedAgent, type Resolver } from '../outbound/guarded-agent.ts';
import type { DataProvider } from '../providers/types.ts';
import type { HeadlessBrowser } from '../providers/web/browser.ts';
import { ConversionPool } from '../providers/web/conversion-pool.ts';
import { createWebProvider } from '../providers/web/index.ts';

export interface TestWebProviderOptions {
  policy: AddressPolicy;
  limits?: Partial<FetchLimits>;
  browser?: HeadlessBrowser;
  /** Name resolution for the guarded agent (node:dns by default). */
  resolve?: Resolver;
}

export function testWebProvider(options: TestWebProviderOptions): DataProvider & { close(): Promise<void> } {
  const agent = guardedAgent(options.policy, options.resolve);
  const pool = new ConversionPool();
  const provider = createWebProvider({ policy: options.policy, agent, pool, ...(options.limits ? { limits: options.limits } : {}), ...(options.browser ? { browser: options.browser } : {}) });
  return {
    ...provider,
    async close() {
      await pool.close();
      await agent.destroy();
    },
  };
}
