/**
 * `microblog/post` on the official X API v2: `GET {X_API_URL}/2/tweets/{id}` with the author, the
 * attachments and the referenced posts expanded, under the operator's bearer token.
 */
import { UpstreamClient } from '../../upstream/upstream-client.ts';
import { upstreamFailure } from '../../upstream/upstream-failure.ts';
import { microblogPostId, type MicroblogProviderDeps } from '../microblog/microblog-provider.ts';
import type { DataProvider, ProviderCall } from '../types.ts';
import type { XConfig } from './config.ts';
import { xPost, type XProblem, type XTweetAnswer } from './x-post.ts';

export { xConfig, type XConfig } from './config.ts';

export const X_NAME = 'X';
const DEFAULT_LIMITS = { timeoutMs: 10_000, maxResponseBytes: 1024 * 1024, maxInFlight: 4 };

/** What the adapter asks for each post (https://docs.x.com/x-api/posts/get-post-by-id). */
export const X_POST_QUERY = {
  expansions: 'author_id,attachments.media_keys,referenced_tweets.id',
  'tweet.fields': 'created_at,lang,conversation_id,public_metrics,referenced_tweets',
  'user.fields': 'username,name,verified,public_metrics',
  'media.fields': 'type,url,preview_image_url,alt_text,variants',
};

/** Problems X answers with 200 and no `data` for a post that cannot be shown: deleted or never existed, or protected (visible only to approved followers). */
const NOT_FOUND_PROBLEMS = new Set([
  'https://api.twitter.com/2/problems/resource-not-found',
  'https://api.twitter.com/2/problems/not-authorized-for-resource',
]);

export function createXProvider(config: XConfig, deps: MicroblogProviderDeps): DataProvider {
  const client = new UpstreamClient({
    name: X_NAME, baseUrl: config.url, ...DEFAULT_LIMITS, ...deps.limits, headers: { authorization: `Bearer ${config.bearerToken}` },
  }, deps.logger);

  return {
    name: 'x',
    close: () => client.close(),
    async fetch(call: ProviderCall): Promise<Record<string, unknown>> {
      const postId = microblogPostId('x', call);
      const answer = await client.request({ method: 'GET', path: `/2/tweets/${encodeURIComponent(postId)}`, query: X_POST_QUERY, signal: call.signal });
      const body = answer.body as XTweetAnswer | null;
      if (body === null || typeof body !== 'object') throw upstreamFailure(X_NAME, { kind: 'unreadable', what: 'JSON that is not an object' }, deps.logger);
      if (body.data === undefined && Array.isArray(body.errors)) throw problemFailure(body.errors, deps);
      const post = xPost(body);
      if (typeof post === 'string') throw upstreamFailure(X_NAME, { kind: 'unreadable', what: post }, deps.logger);
      return { post };
    },
  };
}

/** A 200 with `errors[]` and no `data`: not found (deleted, never existed, protected), or a problem this service cannot read. */
function problemFailure(problems: XProblem[], deps: MicroblogProviderDeps) {
  if (problems.some((problem) => NOT_FOUND_PROBLEMS.has(problem.type ?? ''))) return upstreamFailure(X_NAME, { kind: 'not_found' }, deps.logger);
  const titles = problems.map((problem) => problem.title ?? problem.type ?? 'an unnamed problem').join(', ');
  return upstreamFailure(X_NAME, { kind: 'unreadable', what: `no post but the problems: ${titles}` }, deps.logger);
}
