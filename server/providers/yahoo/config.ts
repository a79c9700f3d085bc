/** The Yahoo Finance adapter's variable. */
import { upstreamUrl } from '../../upstream/upstream-config.ts';

export const YAHOO_FINANCE_DEFAULT_URL = 'https://query1.finance.yahoo.com';

export interface YahooConfig {
  /** `YAHOO_FINANCE_URL`; the documented default when a `PROVIDER_ROUTES` route alone builds the adapter. */
  url: string;
}

/**
 * null when the adapter is off: it needs no key, so it is on only when the operator asks, by
 * `YAHOO_FINANCE_URL` or by a `PROVIDER_ROUTES` route to `yahoo` (then on its documented URL); a
 * default deployment never calls the public internet unasked. A ConfigError naming it for a bad value.
 */
export function yahooConfig(env: NodeJS.ProcessEnv, routes: Record<string, string | undefined>): YahooConfig | null {
  const routed = Object.values(routes).includes('yahoo');
  const url = upstreamUrl(env, 'YAHOO_FINANCE_URL', routed ? YAHOO_FINANCE_DEFAULT_URL : undefined);
  return url === undefined ? null : { url };
}
