/** The Brave Search adapter's variables. */
import { credentialedUpstream } from '../../upstream/upstream-config.ts';

export const BRAVE_SEARCH_DEFAULT_URL = 'https://api.search.brave.com';

export interface BraveConfig {
  /** `BRAVE_SEARCH_URL`, default the official API. */
  url: string;
  /** `BRAVE_SEARCH_API_KEY`, sent as `X-Subscription-Token`. */
  apiKey: string;
}

/** null when `BRAVE_SEARCH_API_KEY` is unset (the adapter is off); a ConfigError naming the variable for a bad value, or for a URL without a key. */
export function braveConfig(env: NodeJS.ProcessEnv): BraveConfig | null {
  const upstream = credentialedUpstream(env, { keyName: 'BRAVE_SEARCH_API_KEY', urlName: 'BRAVE_SEARCH_URL', defaultUrl: BRAVE_SEARCH_DEFAULT_URL, needs: 'Brave Search needs its key' });
  return upstream && { url: upstream.url, apiKey: upstream.key };
}
