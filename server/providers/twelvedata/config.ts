/** The Twelve Data adapter's variables. */
import { credentialedUpstream } from '../../upstream/upstream-config.ts';

export const TWELVEDATA_DEFAULT_URL = 'https://api.twelvedata.com';

export interface TwelveDataConfig {
  /** `TWELVEDATA_URL`, default the official API. */
  url: string;
  /** `TWELVEDATA_API_KEY`, sent as the `apikey` query parameter. */
  apiKey: string;
}

/** null when `TWELVEDATA_API_KEY` is unset (the adapter is off); a ConfigError naming the variable for a bad value, or for a URL without a key. */
export function twelveDataConfig(env: NodeJS.ProcessEnv): TwelveDataConfig | null {
  const upstream = credentialedUpstream(env, { keyName: 'TWELVEDATA_API_KEY', urlName: 'TWELVEDATA_URL', defaultUrl: TWELVEDATA_DEFAULT_URL, needs: 'Twelve Data needs its key' });
  return upstream && { url: upstream.url, apiKey: upstream.key };
}
