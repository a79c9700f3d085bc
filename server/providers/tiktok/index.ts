/**
 * `shortvideo/collection/videos` on TikTok's web app: `GET {TIKTOK_URL}/api/collection/item_list/
 * ?aid=1988&collectionId=…&count=…&cursor=…&sourceType=113`, the undocumented JSON endpoint the
 * collection page itself calls (README.md: how public tools call it).
 */
import type { Logger } from 'pino';
import { UpstreamClient } from '../../upstream/upstream-client.ts';
import { unwrapCursor, wrapCursor } from '../../upstream/upstream-cursor.ts';
import { upstreamFailure } from '../../upstream/upstream-failure.ts';
import { ProviderError, type DataProvider, type ProviderCall } from '../types.ts';
import type { TiktokConfig } from './config.ts';
import { shortVideo, type ItemListAnswer } from './item-list.ts';

export { tiktokConfig, TIKTOK_DEFAULT_URL, type TiktokConfig } from './config.ts';

export const TIKTOK_NAME = 'TikTok';
const DEFAULT_LIMITS = { timeoutMs: 15_000, maxResponseBytes: 5 * 1024 * 1024, maxInFlight: 2 };
/** The most videos TikTok's web app asks per page (yt-dlp's `_PAGE_COUNT`); a larger `count` is refused with statusCode 10201. */
export const TIKTOK_MAX_COUNT = 30;
/**
 * A desktop browser's User-Agent: TikTok's web endpoints answer clients that do not look like a
 * browser with an empty body or a verification page, and the public clients all send one.
 */
export const BROWSER_USER_AGENT = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
/** TikTok's `statusCode` for an id that names nothing: invalid entity, page not found, item not found. */
const NOT_FOUND_CODES = new Set([10201, 10202, 10204]);
/** TikTok's `statusCode` for a verification (captcha) or a login it asks for: the operator's TIKTOK_COOKIE is missing or stale. */
const CHALLENGE_CODES = new Map([[10000, 'a captcha'], [10102, 'a login']]);

export interface TiktokProviderDeps {
  logger: Logger;
  /** Bounds of the upstream client, over the adapter's defaults. */
  limits?: Partial<{ timeoutMs: number; maxResponseBytes: number; maxInFlight: number }>;
}

export function createTiktokProvider(config: TiktokConfig, deps: TiktokProviderDeps): DataProvider {
  const headers: Record<string, string> = { 'user-agent': BROWSER_USER_AGENT, ...(config.cookie ? { cookie: config.cookie } : {}) };
  const client = new UpstreamClient({ name: TIKTOK_NAME, baseUrl: config.url, ...DEFAULT_LIMITS, ...deps.limits, headers }, deps.logger);

  return {
    name: 'tiktok',
    close: () => client.close(),
    async fetch(call: ProviderCall): Promise<Record<string, unknown>> {
      if (call.operationId !== 'listCollectionVideos') throw new ProviderError('provider_unavailable', `The tiktok provider serves shortvideo/collection/videos only, not ${call.operationId}; no credits were used.`);
      const collectionId = String(call.query.collection_id);
      const limit = typeof call.query.limit === 'number' ? call.query.limit : 20;
      const count = Math.min(limit, TIKTOK_MAX_COUNT);
      const answer = await client.request({
        method: 'GET',
        path: '/api/collection/item_list/',
        query: { aid: 1988, collectionId, count, cursor: unwrapCursor('listCollectionVideos', call.query) ?? '0', sourceType: 113 },
        signal: call.signal,
      });
      const page = readPage(answer.body, deps.logger);
      const videos = page.itemList.slice(0, count).map(shortVideo).filter((video) => video !== null);
      return {
        // The item list says nothing of the collection but its id: no title, owner, size or page URL.
        collection: { id: collectionId, title: null, author: null, video_count: null, url: null },
        videos,
        next_cursor: page.next === null ? null : wrapCursor('listCollectionVideos', call.query, page.next),
      };
    },
  };
}

/** The page's items and TikTok's cursor of the next page (null on the last), or the failure its body says. */
function readPage(body: unknown, logger: Logger): { itemList: NonNullable<ItemListAnswer['itemList']>; next: string | null } {
  if (body === null) throw upstreamFailure(TIKTOK_NAME, { kind: 'unreadable', what: 'an empty body' }, logger);
  if (typeof body !== 'object' || Array.isArray(body)) throw upstreamFailure(TIKTOK_NAME, { kind: 'unreadable', what: 'JSON that is not an item list' }, logger);
  const answer = body as ItemListAnswer;
  const status = answer.statusCode ?? answer.status_code ?? 0;
  if (status !== 0) {
    if (NOT_FOUND_CODES.has(status)) throw upstreamFailure(TIKTOK_NAME, { kind: 'not_found' }, logger);
    const challenge = CHALLENGE_CODES.get(status);
    if (challenge) logger.error({ provider: TIKTOK_NAME, statusCode: status }, `${TIKTOK_NAME} asks for ${challenge}: set TIKTOK_COOKIE to a logged-in browser's cookies, or renew it`);
    throw upstreamFailure(TIKTOK_NAME, { kind: 'unreadable', what: `statusCode ${status}${challenge ? ` (it asks for ${challenge})` : ''}` }, logger);
  }
  if (answer.itemList === undefined && answer.hasMore === false) return { itemList: [], next: null };
  if (!Array.isArray(answer.itemList)) throw upstreamFailure(TIKTOK_NAME, { kind: 'unreadable', what: 'JSON without an itemList' }, logger);
  if (answer.hasMore !== true) return { itemList: answer.itemList, next: null };
  const cursor = typeof answer.cursor === 'number' ? String(answer.cursor) : answer.cursor;
  if (typeof cursor !== 'string' || cursor === '') throw upstreamFailure(TIKTOK_NAME, { kind: 'unreadable', what: 'hasMore without a cursor' }, logger);
  return { itemList: answer.itemList, next: cursor };
}
