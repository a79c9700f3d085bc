/** The X adapter's variables. */
import { ConfigError } from '../../config-error.ts';
import { upstreamKey, upstreamUrl } from '../../upstream/upstream-config.ts';

export const X_DEFAULT_URL = 'https://api.x.com';

export interface XConfig {
  /** `X_API_URL`, default the official API. */
  url: string;
  /** `X_BEARER_TOKEN`, sent as `Authorization: Bearer …` (an app-only token); never logged. */
  bearerToken: string;
}

/** null when `X_BEARER_TOKEN` is unset (the adapter is off); a ConfigError naming the variable for a bad value, or for a URL without a token. */
export function xConfig(env: NodeJS.ProcessEnv): XConfig | null {
  const bearerToken = upstreamKey(env, 'X_BEARER_TOKEN');
  const url = upstreamUrl(env, 'X_API_URL', X_DEFAULT_URL)!;
  if (bearerToken === undefined) {
    if (env.X_API_URL?.trim()) throw new ConfigError('X_API_URL is set but X_BEARER_TOKEN is not: the X API needs a bearer token');
    return null;
  }
  return { url, bearerToken };
}
