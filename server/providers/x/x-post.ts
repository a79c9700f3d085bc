/**
 * An X API v2 answer of `GET /2/tweets/:id` (with the expansions and fields the adapter asks) as the
 * contract's MicroblogPost: `data`, its author in `includes.users`, its attachments in `includes.media`.
 */
import { timestamp } from '../../../lib/timestamp.ts';
import { countOrNull, textOrNull, type MicroblogMedia, type MicroblogPost } from '../microblog/microblog-provider.ts';

/** The fields of the answer this adapter reads (https://docs.x.com/x-api/posts/get-post-by-id). */
export interface XTweetAnswer {
  data?: XTweet;
  includes?: { users?: XUser[]; media?: XMedia[] };
  errors?: XProblem[];
}
interface XTweet {
  id?: string;
  text?: string;
  author_id?: string;
  created_at?: string;
  lang?: string;
  conversation_id?: string;
  attachments?: { media_keys?: string[] };
  referenced_tweets?: { type?: string; id?: string }[];
  public_metrics?: Record<string, unknown>;
}
interface XUser {
  id?: string;
  name?: string;
  username?: string;
  verified?: boolean;
  public_metrics?: { followers_count?: unknown };
}
interface XMedia {
  media_key?: string;
  type?: string;
  url?: string;
  preview_image_url?: string;
  alt_text?: string;
  variants?: { bit_rate?: number; content_type?: string; url?: string }[];
}
export interface XProblem {
  type?: string;
  title?: string;
  detail?: string;
}

/** X's media types; any other (none documented) is left out. */
const MEDIA_TYPE: Record<string, MicroblogMedia['type']> = { photo: 'photo', video: 'video', animated_gif: 'gif' };

/** The post, or what is missing from the answer for it to be one (`a post without its author`). */
export function xPost(answer: XTweetAnswer): MicroblogPost | string {
  const tweet = answer.data;
  if (!tweet || typeof tweet.id !== 'string' || typeof tweet.text !== 'string') return 'no post in data';
  const created = Date.parse(tweet.created_at ?? '');
  if (Number.isNaN(created)) return 'a post without created_at';
  const user = answer.includes?.users?.find((candidate) => candidate.id === tweet.author_id);
  if (!user || typeof user.id !== 'string' || typeof user.username !== 'string') return 'a post without its author in includes.users';
  const metrics = tweet.public_metrics ?? {};
  return {
    id: tweet.id,
    url: `https://x.com/${user.username}/status/${tweet.id}`,
    text: tweet.text,
    language: languageOf(tweet.lang),
    created_at: timestamp(created),
    author: {
      id: user.id,
      username: user.username,
      display_name: textOrNull(user.name),
      verified: typeof user.verified === 'boolean' ? user.verified : null,
      followers: countOrNull(user.public_metrics?.followers_count),
    },
    metrics: {
      replies: countOrNull(metrics.reply_count),
      reposts: countOrNull(metrics.retweet_count),
      quotes: countOrNull(metrics.quote_count),
      likes: countOrNull(metrics.like_count),
      bookmarks: countOrNull(metrics.bookmark_count),
      views: countOrNull(metrics.impression_count),
    },
    media: mediaOf(tweet, answer.includes?.media ?? []),
    in_reply_to_post_id: referenced(tweet, 'replied_to'),
    quoted_post_id: referenced(tweet, 'quoted'),
    conversation_id: textOrNull(tweet.conversation_id),
  };
}

/** X's `lang` is BCP 47, but `und` (undetermined) and its `q…` codes (only hashtags, mentions, media links…) name no language. */
function languageOf(lang: string | undefined): string | null {
  return lang === undefined || lang === '' || lang === 'und' || /^q[a-z]{2}$/.test(lang) ? null : lang;
}

function referenced(tweet: XTweet, type: 'replied_to' | 'quoted'): string | null {
  return textOrNull(tweet.referenced_tweets?.find((reference) => reference.type === type)?.id);
}

/** The post's attachments in the order of `attachments.media_keys`; one without a file to point to is left out. */
function mediaOf(tweet: XTweet, included: XMedia[]): MicroblogMedia[] {
  const keys = tweet.attachments?.media_keys ?? [];
  return keys.flatMap((key) => {
    const media = included.find((candidate) => candidate.media_key === key);
    const type = media?.type === undefined ? undefined : MEDIA_TYPE[media.type];
    if (!media || !type) return [];
    const url = type === 'photo' ? media.url : bestVideo(media);
    if (!url) return [];
    return [{ type, url, preview_url: type === 'photo' ? null : textOrNull(media.preview_image_url), alt_text: textOrNull(media.alt_text) }];
  });
}

/** A video's or GIF's file: the MP4 variant of the highest `bit_rate`, else the first variant (an HLS playlist). */
function bestVideo(media: XMedia): string | undefined {
  const variants = (media.variants ?? []).filter((variant) => typeof variant.url === 'string');
  const mp4 = variants.filter((variant) => variant.content_type === 'video/mp4').sort((a, b) => (b.bit_rate ?? 0) - (a.bit_rate ?? 0));
  return (mp4[0] ?? variants[0])?.url;
}
