/** The sandbox's short-video collections: the same collection and videos for the same id, paged by `limit` and `cursor`. */
import type { components } from '../../../generated/types.ts';
import { failOnMagicId } from './magic-failures.ts';
import { decodeCursor, encodeCursor, intParam, type Query, requiredParam } from './request.ts';
import { round, SeededRandom } from './seeded.ts';

type ShortVideoCollectionVideos = components['schemas']['ShortVideoCollectionVideos'];
type ShortVideo = components['schemas']['ShortVideo'];
type ShortVideoAuthor = components['schemas']['ShortVideoAuthor'];

const SITE = 'https://shortvideo.example';
const HASHTAGS = ['#weeknightdinner', '#fyp', '#howto', '#travel', '#diy', '#fitness', '#booktok', '#music', '#comedy'];

/** `GET /shortvideo/collection/videos`: one page of the collection's videos, `next_cursor` null on the last. */
export function sandboxCollectionVideos(query: Query): ShortVideoCollectionVideos {
  const collectionId = requiredParam(query, 'collection_id');
  failOnMagicId(collectionId);
  const limit = Math.min(Math.max(intParam(query, 'limit', 20), 1), 100);
  const offset = decodeCursor('listCollectionVideos', query);
  const random = new SeededRandom(`shortvideo-collection:${collectionId}`);
  const owner = author(random);
  const total = random.int(8, 95);
  const collection = {
    id: collectionId,
    title: random.orNull(0.1, () => random.title(2, 4)),
    author: random.orNull(0.05, () => owner),
    video_count: random.orNull(0.1, () => total),
    url: `${SITE}/@${owner.username}/collection/${collectionId}`,
  };
  const end = Math.min(offset + limit, total);
  const videos = Array.from({ length: Math.max(0, end - offset) }, (_, index) => videoAt(collectionId, offset + index, owner));
  return { collection, videos, next_cursor: end < total ? encodeCursor('listCollectionVideos', query, end) : null };
}

function author(random: SeededRandom): ShortVideoAuthor {
  const [first = 'sandbox', second = 'user'] = random.words(2);
  return {
    id: random.digits(19),
    username: random.chance(0.5) ? `${first}.${second}` : `${first}_${random.int(1, 999)}`,
    display_name: random.orNull(0.1, () => random.title(1, 2)),
  };
}

/** The video at `position` of a collection: the same whatever page it is read on. */
function videoAt(collectionId: string, position: number, owner: ShortVideoAuthor): ShortVideo {
  const random = new SeededRandom(`shortvideo-video:${collectionId}:${position}`);
  const videoAuthor = random.chance(0.7) ? owner : author(random);
  const id = random.digits(19);
  const views = random.int(200, 5_000_000);
  return {
    id,
    url: `${SITE}/@${videoAuthor.username}/video/${id}`,
    description: random.orNull(0.1, () => `${random.sentence(4, 10)} ${hashtags(random).join(' ')}`),
    author: videoAuthor,
    created_at: random.orNull(0.05, () => random.dateTime()),
    duration_seconds: random.orNull(0.05, () => round(random.float(5, 180, 1), 1)),
    cover_url: random.orNull(0.05, () => `https://media.shortvideo.example/cover/${id}.jpeg`),
    stats: {
      views: random.orNull(0.05, () => views),
      likes: random.orNull(0.05, () => Math.floor(views * random.float(0.01, 0.12, 4))),
      comments: random.orNull(0.1, () => Math.floor(views * random.float(0.0005, 0.004, 5))),
      shares: random.orNull(0.1, () => Math.floor(views * random.float(0.0005, 0.01, 5))),
      saves: random.orNull(0.25, () => Math.floor(views * random.float(0.001, 0.02, 5))),
    },
  };
}

function hashtags(random: SeededRandom): string[] {
  const first = random.int(0, HASHTAGS.length - 1);
  return [HASHTAGS[first]!, HASHTAGS[(first + random.int(1, HASHTAGS.length - 1)) % HASHTAGS.length]!];
}
