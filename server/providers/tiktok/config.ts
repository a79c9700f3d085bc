/** The TikTok adapter's variables. */
import { ConfigError } from '../../config-error.ts';
import { upstreamUrl } from '../../upstream/upstream-config.ts';

export const TIKTOK_DEFAULT_URL = 'https://www.tiktok.com';

export interface TiktokConfig {
  /** `TIKTOK_URL`, default the public web app (only when `PROVIDER_ROUTES` routes an operation to `tiktok`). */
  url: string;
  /** `TIKTOK_COOKIE`: sent as the `Cookie` header (a logged-in browser's cookies); never logged, never echoed. */
  cookie: string | undefined;
}

/**
 * null when the adapter is off: no `TIKTOK_URL` and no `PROVIDER_ROUTES` route to `tiktok` (a
 * default deployment never calls the public internet unasked). A ConfigError naming the variable
 * for a bad URL, a cookie with line breaks or control characters, or a cookie for an adapter that is off.
 */
export function tiktokConfig(env: NodeJS.ProcessEnv, routes: Record<string, string | undefined>): TiktokConfig | null {
  const routed = Object.values(routes).includes('tiktok');
  const url = upstreamUrl(env, 'TIKTOK_URL', routed ? TIKTOK_DEFAULT_URL : undefined);
  const cookie = env.TIKTOK_COOKIE?.trim() || undefined;
  // The value is never repeated: a cookie is a credential.
  if (cookie !== undefined && /[\u0000-\u001f\u007f]/.test(cookie)) throw new ConfigError('TIKTOK_COOKIE must be one Cookie header value (name=value pairs separated by "; ") without line breaks or control characters');
  if (url === undefined) {
    if (cookie !== undefined) throw new ConfigError('TIKTOK_COOKIE is set but the tiktok adapter is off: set TIKTOK_URL, or route listCollectionVideos to "tiktok" in PROVIDER_ROUTES');
    return null;
  }
  return { url, cookie };
}
