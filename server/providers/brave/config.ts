/** The Brave Search adapter's variables. */
import { ConfigError } from '../../config-error.ts';
import { upstreamKey, upstreamUrl } from '../../upstream/upstream-config.ts';

export const BRAVE_SEARCH_DEFAULT_URL = 'https://api.search.brave.com';

export interface BraveConfig {
  /** `BRAVE_SEARCH_URL`, default the official API. */
  url: string;
  /** `BRAVE_SEARCH_API_KEY`, sent as `X-Subscription-Token`. */
  apiKey: string;
}

/** null when `BRAVE_SEARCH_API_KEY` is unset (the adapter is off); a ConfigError naming the variable for a bad value, or for a URL without a key. */
export function braveConfig(env: NodeJS.ProcessEnv): BraveConfig | null {
  const apiKey = upstreamKey(env, 'BRAVE_SEARCH_API_KEY');
  const url = upstreamUrl(env, 'BRAVE_SEARCH_URL', BRAVE_SEARCH_DEFAULT_URL)!;
  if (apiKey === undefined) {
    if (env.BRAVE_SEARCH_URL?.trim()) throw new ConfigError('BRAVE_SEARCH_URL is set but BRAVE_SEARCH_API_KEY is not: Brave Search needs its key');
    return null;
  }
  return { url, apiKey };
}
