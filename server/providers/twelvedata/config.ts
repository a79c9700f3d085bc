/** The Twelve Data adapter's variables. */
import { ConfigError } from '../../config-error.ts';
import { upstreamKey, upstreamUrl } from '../../upstream/upstream-config.ts';

export const TWELVEDATA_DEFAULT_URL = 'https://api.twelvedata.com';

export interface TwelveDataConfig {
  /** `TWELVEDATA_URL`, default the official API. */
  url: string;
  /** `TWELVEDATA_API_KEY`, sent as the `apikey` query parameter. */
  apiKey: string;
}

/** null when `TWELVEDATA_API_KEY` is unset (the adapter is off); a ConfigError naming the variable for a bad value, or for a URL without a key. */
export function twelveDataConfig(env: NodeJS.ProcessEnv): TwelveDataConfig | null {
  const apiKey = upstreamKey(env, 'TWELVEDATA_API_KEY');
  const url = upstreamUrl(env, 'TWELVEDATA_URL', TWELVEDATA_DEFAULT_URL)!;
  if (apiKey === undefined) {
    if (env.TWELVEDATA_URL?.trim()) throw new ConfigError('TWELVEDATA_URL is set but TWELVEDATA_API_KEY is not: Twelve Data needs its key');
    return null;
  }
  return { url, apiKey };
}
