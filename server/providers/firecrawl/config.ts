/** The Firecrawl adapter's variables. */
import { upstreamKey, upstreamUrl } from '../../upstream/upstream-config.ts';

export const FIRECRAWL_DEFAULT_URL = 'https://api.firecrawl.dev';

export interface FirecrawlConfig {
  /** `FIRECRAWL_API_URL`: a self-hosted Firecrawl, or the hosted API by default. */
  url: string;
  /** `FIRECRAWL_API_KEY`, sent as `Authorization: Bearer …`; a self-hosted Firecrawl without authentication needs none. */
  apiKey: string | undefined;
}

/** null when neither variable is set (the adapter is off); a ConfigError naming the variable for a bad value. */
export function firecrawlConfig(env: NodeJS.ProcessEnv): FirecrawlConfig | null {
  const apiKey = upstreamKey(env, 'FIRECRAWL_API_KEY');
  const url = upstreamUrl(env, 'FIRECRAWL_API_URL');
  if (url === undefined && apiKey === undefined) return null;
  return { url: url ?? FIRECRAWL_DEFAULT_URL, apiKey };
}
