/**
 * TikTok's `/api/collection/item_list/` answer, read as the public clients read it (yt-dlp's
 * TikTokCollectionIE and `_parse_aweme_video_web`, davidteather/TikTok-Api), and mapped to the
 * contract's `ShortVideo`: every field from the answer, or null where it has none.
 */
import type { components } from '../../../generated/types.ts';

type ShortVideo = components['schemas']['ShortVideo'];

/** Where a video's public page is: `https://www.tiktok.com/@{uniqueId}/video/{id}`, whatever TIKTOK_URL points at. */
export const TIKTOK_WEB = 'https://www.tiktok.com';

/** The fields of the answer this adapter reads; TikTok sends many more (`music`, `challenges`, `extra`, `log_pb`, …). */
export interface ItemListAnswer {
  statusCode?: number;
  status_code?: number;
  statusMsg?: string;
  itemList?: TiktokItem[];
  hasMore?: boolean;
  /** The next page's cursor, a string of digits (`"30"`); sometimes a number. */
  cursor?: string | number;
}

export interface TiktokItem {
  id?: string;
  desc?: string;
  /** Epoch seconds, a number (sometimes a string of digits). */
  createTime?: number | string;
  author?: { id?: string; uniqueId?: string; nickname?: string; secUid?: string };
  stats?: { playCount?: number | string; diggCount?: number | string; commentCount?: number | string; shareCount?: number | string; collectCount?: number | string };
  video?: { duration?: number; cover?: string };
}

/** The contract's video for one item, or null when the item lacks what a video needs (its id, its author's id and uniqueId). */
export function shortVideo(item: TiktokItem): ShortVideo | null {
  const id = text(item.id);
  const authorId = text(item.author?.id);
  const username = text(item.author?.uniqueId);
  if (id === null || authorId === null || username === null) return null;
  const stats = item.stats ?? {};
  const duration = item.video?.duration;
  return {
    id,
    url: `${TIKTOK_WEB}/@${encodeURIComponent(username)}/video/${encodeURIComponent(id)}`,
    description: text(item.desc),
    author: { id: authorId, username, display_name: text(item.author?.nickname) },
    created_at: rfc3339(item.createTime),
    // A photo slideshow has a video duration of 0: no length, not a zero-second video.
    duration_seconds: typeof duration === 'number' && Number.isFinite(duration) && duration > 0 ? duration : null,
    cover_url: httpUrl(item.video?.cover),
    stats: {
      views: count(stats.playCount),
      likes: count(stats.diggCount),
      comments: count(stats.commentCount),
      shares: count(stats.shareCount),
      saves: count(stats.collectCount),
    },
  };
}

/** A non-empty string (ids come as strings; a number id is read as its digits), else null. */
function text(value: unknown): string | null {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

/** A count: a non-negative integer, or a string of digits (TikTok's `statsV2` style), else null. */
function count(value: unknown): number | null {
  const number = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  return typeof number === 'number' && Number.isSafeInteger(number) && number >= 0 ? number : null;
}

/** Epoch seconds → RFC 3339 UTC without fractions; 0, absent or unreadable → null. */
function rfc3339(value: unknown): string | null {
  const seconds = count(value);
  if (seconds === null || seconds === 0) return null;
  return new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');
}

function httpUrl(value: unknown): string | null {
  if (typeof value !== 'string' || !URL.canParse(value)) return null;
  const protocol = new URL(value).protocol;
  return protocol === 'https:' || protocol === 'http:' ? value : null;
}
