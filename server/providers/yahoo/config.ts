/** The Yahoo Finance adapter's variable. */
import { upstreamUrl } from '../../upstream/upstream-config.ts';

export const YAHOO_FINANCE_DEFAULT_URL = 'https://query1.finance.yahoo.com';

export interface YahooConfig {
  /** `YAHOO_FINANCE_URL`; the documented default when a `PROVIDER_ROUTES` route alone builds the adapter. */
  url: string;
}

/**
 * null when `YAHOO_FINANCE_URL` is unset: the adapter needs no key, so it is built only when the
 * operator asks (this variable, or `PROVIDER_ROUTES` naming `yahoo`, build-providers.ts); a default
 * deployment never calls the public internet unasked. A ConfigError naming it for a bad value.
 */
export function yahooConfig(env: NodeJS.ProcessEnv): YahooConfig | null {
  const url = upstreamUrl(env, 'YAHOO_FINANCE_URL');
  return url === undefined ? null : { url };
}
