import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino, { type Logger } from 'pino';
import { describeErrors, validatorAt } from '../../../contract-tests/contract.ts';
import { ConfigError } from '../../config.ts';
import { capturingLogger, json, startFakeUpstream, type FakeAnswer, type FakeUpstream } from '../../test-support/fake-upstream.ts';
import { expectProviderFailure, failureCases, TEST_LIMITS } from '../../test-support/upstream-failure-cases.ts';
import type { DataProvider } from '../types.ts';
import { createXProvider, X_POST_QUERY, xConfig } from './index.ts';
import tweetWithVideo from './fixtures/tweet-with-video.json' with { type: 'json' };
import replyWithPhotos from './fixtures/reply-with-photos.json' with { type: 'json' };
import notFound from './fixtures/not-found.json' with { type: 'json' };
import notAuthorized from './fixtures/not-authorized.json' with { type: 'json' };

const TOKEN = 'AAAAAAAAAAAAAAAAAAAAAx-test-bearer-token-0001';
const validate = validatorAt('/components/schemas/MicroblogPostLookup');

let fake: FakeUpstream;
beforeAll(async () => { fake = await startFakeUpstream(); });
afterAll(async () => { await fake.close(); });

function provider(logger: Logger = pino({ level: 'silent' })): DataProvider {
  return createXProvider({ url: `${fake.baseUrl}/x-api`, bearerToken: TOKEN }, { logger, limits: TEST_LIMITS });
}

async function lookup(postId: string, answer: FakeAnswer) {
  fake.answer = answer;
  fake.requests.length = 0;
  const data = await provider().fetch({ operationId: 'getMicroblogPost', query: { post_id: postId }, signal: new AbortController().signal });
  const valid = validate(data);
  expect(describeErrors(validate.errors), 'the answer is valid against MicroblogPostLookup').toEqual([]);
  expect(valid).toBe(true);
  return { data, asked: fake.requests.map((request) => ({ url: new URL(request.url, 'http://x'), authorization: request.headers.authorization })) };
}

/** X's 429: its x-rate-limit-* headers, the reset in epoch seconds 600 s after the answer. */
const throttled: FakeAnswer = (request, response) => json(429, { title: 'Too Many Requests', detail: 'Too Many Requests', type: 'about:blank', status: 429 }, {
  'x-rate-limit-limit': '900', 'x-rate-limit-remaining': '0', 'x-rate-limit-reset': String(Math.floor(Date.now() / 1000) + 600),
})(request, response);

describe('the x adapter', () => {
  it('asks GET {X_API_URL}/2/tweets/{id} with the expansions and fields, under Authorization: Bearer, and maps the documented post with a video', async () => {
    const { data, asked } = await lookup('1260294888811347969', json(200, tweetWithVideo));
    expect(asked.map(({ url }) => url.pathname)).toEqual(['/x-api/2/tweets/1260294888811347969']);
    expect(Object.fromEntries(asked[0]!.url.searchParams)).toEqual(X_POST_QUERY);
    expect(Object.fromEntries(asked[0]!.url.searchParams)).toEqual({
      expansions: 'author_id,attachments.media_keys,referenced_tweets.id',
      'tweet.fields': 'created_at,lang,conversation_id,public_metrics,referenced_tweets',
      'user.fields': 'username,name,verified,public_metrics',
      'media.fields': 'type,url,preview_image_url,alt_text,variants',
    });
    expect(asked[0]!.authorization).toBe(`Bearer ${TOKEN}`);
    expect(data).toEqual({
      post: {
        id: '1260294888811347969',
        url: 'https://x.com/Twitter/status/1260294888811347969',
        text: 'Don’t miss the Tweets about your Tweet.\n\nNow on iOS, you can see Retweets with comments all in one place. https://t.co/oanjZfzC6y',
        language: 'en',
        created_at: '2020-05-12T19:44:03Z',
        author: { id: '783214', username: 'Twitter', display_name: 'Twitter', verified: true, followers: 64856321 },
        metrics: { replies: 2362, reposts: 2021, quotes: 1278, likes: 9837, bookmarks: 118, views: 0 },
        media: [{
          type: 'video',
          url: 'https://video.twimg.com/amplify_video/1260294804770041858/vid/1280x720/TlTkqf9cJhrnC6pp.mp4?tag=13',
          preview_url: 'https://pbs.twimg.com/media/EXzhQxiXgAE6-Mm.jpg',
          alt_text: null,
        }],
        in_reply_to_post_id: null,
        quoted_post_id: null,
        conversation_id: '1260294888811347969',
      },
    });
  });

  it('a reply that quotes: referenced_tweets give in_reply_to_post_id and quoted_post_id; a photo (no preview) and an animated_gif as gif, in media_keys order', async () => {
    const { data } = await lookup('1445880548472328192', json(200, replyWithPhotos));
    expect(data).toEqual({
      post: {
        id: '1445880548472328192',
        url: 'https://x.com/XDevelopers/status/1445880548472328192',
        text: '@XDevelopers Here is what we built with the new endpoints https://t.co/mYdrSqxzUR',
        language: 'en',
        created_at: '2021-10-06T22:40:13Z',
        author: { id: '2244994945', username: 'XDevelopers', display_name: 'Developers', verified: false, followers: 583423 },
        metrics: { replies: 4, reposts: 11, quotes: 2, likes: 85, bookmarks: 7, views: 10293 },
        media: [
          { type: 'photo', url: 'https://pbs.twimg.com/media/FBCaRcmXIAUa3pX.jpg', preview_url: null, alt_text: 'A dashboard of recent Tweets about the X API, grouped by topic.' },
          { type: 'gif', url: 'https://video.twimg.com/tweet_video/FBCaRvRXMAAz3-G.mp4', preview_url: 'https://pbs.twimg.com/tweet_video_thumb/FBCaRvRXMAAz3-G.jpg', alt_text: null },
        ],
        in_reply_to_post_id: '1445078208190291973',
        quoted_post_id: '1442182396523257861',
        conversation_id: '1445078208190291973',
      },
    });
  });

  it('metrics, followers, lang and conversation_id X leaves out are null, never 0; lang und is null', async () => {
    const bare = structuredClone(tweetWithVideo) as Record<string, any>;
    bare.data.lang = 'und';
    delete bare.data.conversation_id;
    bare.data.public_metrics = { retweet_count: 3, like_count: 8 };
    delete bare.includes.users[0].public_metrics;
    delete bare.includes.users[0].verified;
    const { data } = await lookup('1260294888811347969', json(200, bare));
    const post = (data as { post: Record<string, unknown> }).post;
    expect([post.language, post.conversation_id, post.metrics, post.author]).toEqual([
      null, null,
      { replies: null, reposts: 3, quotes: null, likes: 8, bookmarks: null, views: null },
      { id: '783214', username: 'Twitter', display_name: 'Twitter', verified: null, followers: null },
    ]);
  });

  it.each([
    { name: "a 200 with errors[] of type resource-not-found (deleted, never existed) is 404 upstream_not_found", body: notFound },
    { name: "a 200 with errors[] of type not-authorized-for-resource (a protected post) is 404 upstream_not_found", body: notAuthorized },
  ])('$name', async ({ body }) => {
    fake.answer = json(200, body);
    await expect(provider().fetch({ operationId: 'getMicroblogPost', query: { post_id: '1260294888811347968' }, signal: new AbortController().signal }))
      .rejects.toMatchObject({ code: 'upstream_not_found', message: 'X found nothing by that name.' });
  });

  it.each([
    { name: 'errors[] of another problem and no data is 502 upstream_failed naming it', body: { errors: [{ title: 'Invalid Request', type: 'https://api.twitter.com/2/problems/invalid-request' }] }, message: 'X answered no post but the problems: Invalid Request.' },
    { name: 'data without its author in includes.users is 502 upstream_failed', body: { data: tweetWithVideo.data, includes: { media: tweetWithVideo.includes.media } }, message: 'X answered a post without its author in includes.users.' },
    { name: 'a JSON answer that is not an object is 502 upstream_failed', body: '[]', message: 'X answered no post in data.' },
  ])('$name', async ({ body, message }) => {
    fake.answer = json(200, body);
    await expect(provider().fetch({ operationId: 'getMicroblogPost', query: { post_id: '1260294888811347969' }, signal: new AbortController().signal }))
      .rejects.toMatchObject({ code: 'upstream_failed', message });
  });

  it('a 429 is logged for the operator with the Retry-After from x-rate-limit-reset, and never the bearer token', async () => {
    const capture = capturingLogger();
    fake.answer = throttled;
    const error = await provider(capture.logger).fetch({ operationId: 'getMicroblogPost', query: { post_id: '1' }, signal: new AbortController().signal }).catch((reason: unknown) => reason);
    expect(error).toMatchObject({ code: 'upstream_rate_limited', headers: { 'Retry-After': expect.stringMatching(/^(599|600)$/) } });
    expect(capture.lines()).toContainEqual(expect.objectContaining({ provider: 'X', status: 429 }));
    expect(capture.text()).not.toContain(TOKEN);
  });

  it('a 401 (a revoked token) is logged at error level without the bearer token', async () => {
    const capture = capturingLogger();
    fake.answer = json(401, { title: 'Unauthorized', type: 'about:blank', status: 401, detail: 'Unauthorized' });
    await expect(provider(capture.logger).fetch({ operationId: 'getMicroblogPost', query: { post_id: '1' }, signal: new AbortController().signal })).rejects.toMatchObject({ code: 'provider_unavailable' });
    expect(capture.lines()).toContainEqual(expect.objectContaining({ level: 50, provider: 'X', status: 401 }));
    expect(capture.text()).not.toContain(TOKEN);
  });

  it('routed to another operation, it is no provider (503 provider_unavailable)', async () => {
    await expect(provider().fetch({ operationId: 'searchWeb', query: { query: 'x' }, signal: new AbortController().signal })).rejects.toMatchObject({ code: 'provider_unavailable' });
  });

  it.each(failureCases('X', { answer: throttled, retryAfter: '600' }))('$name', async (failure) => {
    fake.answer = failure.answer;
    await expectProviderFailure(provider(), { operationId: 'getMicroblogPost', query: { post_id: '1260294888811347969' } }, failure, TOKEN);
  });
});

describe('xConfig', () => {
  it('is null when X_BEARER_TOKEN is unset; the official API by default; X_API_URL over it; a ConfigError for a URL without a token or a token with spaces', () => {
    expect(xConfig({})).toBeNull();
    expect(xConfig({ X_BEARER_TOKEN: TOKEN })).toEqual({ url: 'https://api.x.com', bearerToken: TOKEN });
    expect(xConfig({ X_BEARER_TOKEN: TOKEN, X_API_URL: 'http://127.0.0.1:9000/' })).toEqual({ url: 'http://127.0.0.1:9000', bearerToken: TOKEN });
    expect(() => xConfig({ X_API_URL: 'http://127.0.0.1:9000' })).toThrow(ConfigError);
    expect(() => xConfig({ X_API_URL: 'http://127.0.0.1:9000' })).toThrow(/^X_API_URL is set but X_BEARER_TOKEN is not/);
    expect(() => xConfig({ X_BEARER_TOKEN: 'AAAA BBBB' })).toThrow(/^X_BEARER_TOKEN must be one API key/);
    expect(() => xConfig({ X_BEARER_TOKEN: 'AAAA BBBB' })).not.toThrow(/AAAA/);
  });
});
