/** The X adapter's variables. */
import { credentialedUpstream } from '../../upstream/upstream-config.ts';

export const X_DEFAULT_URL = 'https://api.x.com';

export interface XConfig {
  /** `X_API_URL`, default the official API. */
  url: string;
  /** `X_BEARER_TOKEN`, sent as `Authorization: Bearer …` (an app-only token); never logged. */
  bearerToken: string;
}

/** null when `X_BEARER_TOKEN` is unset (the adapter is off); a ConfigError naming the variable for a bad value, or for a URL without a token. */
export function xConfig(env: NodeJS.ProcessEnv): XConfig | null {
  const upstream = credentialedUpstream(env, { keyName: 'X_BEARER_TOKEN', urlName: 'X_API_URL', defaultUrl: X_DEFAULT_URL, needs: 'the X API needs a bearer token' });
  return upstream && { url: upstream.url, bearerToken: upstream.key };
}
