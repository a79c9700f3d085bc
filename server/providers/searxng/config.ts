/** The SearXNG adapter's variables. */
import { upstreamUrl } from '../../upstream/upstream-config.ts';

export interface SearxngConfig {
  /** `SEARXNG_URL`: the instance's base URL (loopback and intranet allowed: operator configuration). */
  url: string;
}

/** null when `SEARXNG_URL` is unset (the adapter is off); a ConfigError naming it when it is not an http(s) URL. */
export function searxngConfig(env: NodeJS.ProcessEnv): SearxngConfig | null {
  const url = upstreamUrl(env, 'SEARXNG_URL');
  return url === undefined ? null : { url };
}
