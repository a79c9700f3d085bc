/** The FxTwitter adapter's variables. */
import { upstreamUrl } from '../../upstream/upstream-config.ts';

export interface FxTwitterConfig {
  /** `FXTWITTER_URL`: the FxTwitter API's base URL (public: `https://api.fxtwitter.com`; or a self-hosted worker). */
  url: string;
}

/** null when `FXTWITTER_URL` is unset (the adapter is off: no default, a deployment never calls it unasked); a ConfigError naming it when it is not an http(s) URL. */
export function fxtwitterConfig(env: NodeJS.ProcessEnv): FxTwitterConfig | null {
  const url = upstreamUrl(env, 'FXTWITTER_URL');
  return url === undefined ? null : { url };
}
