/** The sandbox's microblog posts: the same post for the same id. */
import type { components } from '../../../generated/types.ts';
import { failOnMagicPostId } from './magic-failures.ts';
import { type Query, requestRandom, requiredParam } from './request.ts';
import type { SeededRandom } from './seeded.ts';

type MicroblogPostLookup = components['schemas']['MicroblogPostLookup'];
type MicroblogMedia = components['schemas']['MicroblogMedia'];

const SITE = 'https://microblog.example';
const MEDIA = 'https://media.microblog.example';

/** `GET /microblog/post`: the post `post_id`, with author, metrics (some unknown) and attachments. */
export function sandboxMicroblogPost(query: Query): MicroblogPostLookup {
  const postId = requiredParam(query, 'post_id');
  failOnMagicPostId(postId);
  const random = requestRandom('getMicroblogPost', query);
  const [first = 'sandbox', second = 'writer'] = random.words(2);
  const username = `${first}_${second}`;
  const media = Array.from({ length: random.pick([0, 0, 0, 1, 1, 2, 4]) }, () => attachment(random));
  const mediaOnly = media.length > 0 && random.chance(0.1);
  const inReplyTo = random.orNull(0.7, () => random.digits(19));
  const views = random.int(50, 3_000_000);
  return {
    post: {
      id: postId,
      url: `${SITE}/${username}/status/${postId}`,
      text: mediaOnly ? '' : `${random.sentence(5, 25)}${random.chance(0.3) ? ` #${random.words(1)[0]}` : ''}`,
      language: mediaOnly ? null : random.orNull(0.05, () => 'en'),
      created_at: random.dateTime(),
      author: {
        id: random.digits(random.int(9, 19)),
        username,
        display_name: random.orNull(0.1, () => random.title(2, 2)),
        verified: random.orNull(0.1, () => random.chance(0.3)),
        followers: random.orNull(0.1, () => random.int(0, 2_000_000)),
      },
      metrics: {
        replies: random.orNull(0.05, () => Math.floor(views * random.float(0.0001, 0.002, 5))),
        reposts: random.orNull(0.05, () => Math.floor(views * random.float(0.0005, 0.005, 5))),
        quotes: random.orNull(0.2, () => Math.floor(views * random.float(0.0001, 0.001, 5))),
        likes: random.orNull(0.05, () => Math.floor(views * random.float(0.005, 0.03, 4))),
        bookmarks: random.orNull(0.2, () => Math.floor(views * random.float(0.0005, 0.004, 5))),
        views: random.orNull(0.15, () => views),
      },
      media,
      in_reply_to_post_id: inReplyTo,
      quoted_post_id: random.orNull(0.8, () => random.digits(19)),
      conversation_id: random.orNull(0.05, () => (inReplyTo === null ? postId : random.chance(0.5) ? inReplyTo : random.digits(19))),
    },
  };
}

function attachment(random: SeededRandom): MicroblogMedia {
  const type = random.pick(['photo', 'photo', 'photo', 'video', 'gif'] as const);
  if (type === 'photo') {
    const key = random.base32(15);
    return {
      type,
      url: `${MEDIA}/media/${key}.jpg`,
      preview_url: `${MEDIA}/media/${key}_small.jpg`,
      alt_text: random.orNull(0.5, () => random.sentence(5, 12)),
    };
  }
  const key = random.digits(19);
  return {
    type,
    url: `${MEDIA}/video/${key}/720x1280.mp4`,
    preview_url: random.orNull(0.1, () => `${MEDIA}/video/${key}/thumb.jpg`),
    alt_text: random.orNull(0.9, () => random.sentence(5, 12)),
  };
}
