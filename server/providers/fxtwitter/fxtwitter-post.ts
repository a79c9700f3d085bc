/**
 * A FxTwitter status answer (`tweet`, an APITweet: the FixTweet/FxTwitter repository's
 * docs/api/status.rst) as the contract's MicroblogPost. FxTwitter gives no quote or bookmark counts,
 * no verification, no follower count and no thread root: those are null.
 */
import { timestamp } from '../../../lib/timestamp.ts';
import { countOrNull, textOrNull, type MicroblogMedia, type MicroblogPost } from '../microblog/microblog-provider.ts';

/** The fields of the answer this adapter reads. */
export interface FxStatusAnswer {
  code?: number;
  message?: string;
  tweet?: FxTweet;
}
interface FxTweet {
  id?: string;
  url?: string;
  text?: string;
  created_timestamp?: number;
  lang?: string | null;
  author?: { id?: string; name?: string; screen_name?: string };
  replies?: number;
  retweets?: number;
  likes?: number;
  views?: number | null;
  replying_to_status?: string | null;
  quote?: { id?: string };
  media?: {
    photos?: { type?: string; url?: string; altText?: string }[];
    videos?: { type?: string; url?: string; thumbnail_url?: string }[];
  };
}

/** The post, or what is missing from the answer for it to be one. */
export function fxtwitterPost(answer: FxStatusAnswer): MicroblogPost | string {
  const tweet = answer.tweet;
  if (!tweet || typeof tweet.id !== 'string' || typeof tweet.text !== 'string' || typeof tweet.url !== 'string') return 'no tweet';
  if (typeof tweet.created_timestamp !== 'number') return 'a tweet without created_timestamp';
  const author = tweet.author;
  if (!author || typeof author.id !== 'string' || typeof author.screen_name !== 'string') return 'a tweet without its author';
  const inReplyTo = textOrNull(tweet.replying_to_status);
  return {
    id: tweet.id,
    url: tweet.url,
    text: tweet.text,
    language: textOrNull(tweet.lang),
    created_at: timestamp(tweet.created_timestamp * 1000),
    author: { id: author.id, username: author.screen_name, display_name: textOrNull(author.name), verified: null, followers: null },
    metrics: {
      replies: countOrNull(tweet.replies),
      reposts: countOrNull(tweet.retweets),
      quotes: null,
      likes: countOrNull(tweet.likes),
      bookmarks: null,
      views: countOrNull(tweet.views),
    },
    media: mediaOf(tweet),
    in_reply_to_post_id: inReplyTo,
    quoted_post_id: textOrNull(tweet.quote?.id),
    // A post that replies to nothing starts its own thread; for a reply FxTwitter does not say which post started it.
    conversation_id: inReplyTo === null ? tweet.id : null,
  };
}

/** Photos, then videos and GIFs (FxTwitter groups them so); `external` (a YouTube embed) and `mosaic` are not attachments of the post. */
function mediaOf(tweet: FxTweet): MicroblogMedia[] {
  const photos = (tweet.media?.photos ?? []).flatMap((photo) => typeof photo.url === 'string'
    ? [{ type: 'photo' as const, url: photo.url, preview_url: null, alt_text: textOrNull(photo.altText) }]
    : []);
  const videos = (tweet.media?.videos ?? []).flatMap((video) => typeof video.url === 'string'
    ? [{ type: video.type === 'gif' ? 'gif' as const : 'video' as const, url: video.url, preview_url: textOrNull(video.thumbnail_url), alt_text: null }]
    : []);
  return [...photos, ...videos];
}
