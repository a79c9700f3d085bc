/**
 * `microblog/post` on the FxTwitter API (no key): `GET {FXTWITTER_URL}/i/status/{id}` (the screen
 * name in the path is ignored by FxTwitter). Its `code` 404 `NOT_FOUND` and 401 `PRIVATE_TWEET` are
 * 404 upstream_not_found; 500 `API_FAIL` is 502 upstream_failed.
 */
import { UpstreamClient } from '../../upstream/upstream-client.ts';
import { upstreamFailure } from '../../upstream/upstream-failure.ts';
import { microblogPostId, type MicroblogProviderDeps } from '../microblog/microblog-provider.ts';
import type { DataProvider, ProviderCall } from '../types.ts';
import type { FxTwitterConfig } from './config.ts';
import { fxtwitterPost, type FxStatusAnswer } from './fxtwitter-post.ts';

export { fxtwitterConfig, type FxTwitterConfig } from './config.ts';

export const FXTWITTER_NAME = 'FxTwitter';
const DEFAULT_LIMITS = { timeoutMs: 10_000, maxResponseBytes: 1024 * 1024, maxInFlight: 4 };
/** The statuses FxTwitter documents with a `code` in the body: read it rather than the status alone (a 401 is a private post, not a refused credential). */
const DOCUMENTED_STATUSES = [401, 404, 500];
/** FxTwitter's `code` for a post that cannot be shown: it does not exist, or it is private (visible only to approved followers). */
const NOT_FOUND_CODES = new Set([401, 404]);

export function createFxTwitterProvider(config: FxTwitterConfig, deps: MicroblogProviderDeps): DataProvider {
  const client = new UpstreamClient({ name: FXTWITTER_NAME, baseUrl: config.url, ...DEFAULT_LIMITS, ...deps.limits }, deps.logger);

  return {
    name: 'fxtwitter',
    close: () => client.close(),
    async fetch(call: ProviderCall): Promise<Record<string, unknown>> {
      const postId = microblogPostId('fxtwitter', call);
      const answer = await client.request({ method: 'GET', path: `/i/status/${encodeURIComponent(postId)}`, readStatuses: DOCUMENTED_STATUSES, signal: call.signal });
      const body = (answer.body !== null && typeof answer.body === 'object' ? answer.body : {}) as FxStatusAnswer;
      const code = typeof body.code === 'number' ? body.code : answer.status;
      if (NOT_FOUND_CODES.has(code) && body.code === code) throw upstreamFailure(FXTWITTER_NAME, { kind: 'not_found' }, deps.logger);
      if (answer.status !== 200 || code !== 200) throw upstreamFailure(FXTWITTER_NAME, { kind: 'status', status: code === 200 ? answer.status : code, headers: answer.headers }, deps.logger);
      const post = fxtwitterPost(body);
      if (typeof post === 'string') throw upstreamFailure(FXTWITTER_NAME, { kind: 'unreadable', what: post }, deps.logger);
      return { post };
    },
  };
}
