import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { describeErrors, validatorAt } from '../../../contract-tests/contract.ts';
import { ConfigError } from '../../config.ts';
import { json, startFakeUpstream, type FakeAnswer, type FakeUpstream } from '../../test-support/fake-upstream.ts';
import { expectProviderFailure, failureCases, TEST_LIMITS } from '../../test-support/upstream-failure-cases.ts';
import type { DataProvider } from '../types.ts';
import { createFxTwitterProvider, fxtwitterConfig } from './index.ts';
import status from './fixtures/status.json' with { type: 'json' };
import replyWithVideo from './fixtures/reply-with-video.json' with { type: 'json' };
import privateTweet from './fixtures/private.json' with { type: 'json' };
import notFound from './fixtures/not-found.json' with { type: 'json' };
import apiFail from './fixtures/api-fail.json' with { type: 'json' };

const validate = validatorAt('/components/schemas/MicroblogPostLookup');

let fake: FakeUpstream;
beforeAll(async () => { fake = await startFakeUpstream(); });
afterAll(async () => { await fake.close(); });

function provider(): DataProvider {
  return createFxTwitterProvider({ url: `${fake.baseUrl}/fx` }, { logger: pino({ level: 'silent' }), limits: TEST_LIMITS });
}

function fetchPost(postId: string) {
  return provider().fetch({ operationId: 'getMicroblogPost', query: { post_id: postId }, signal: new AbortController().signal });
}

async function lookup(postId: string, answer: FakeAnswer) {
  fake.answer = answer;
  fake.requests.length = 0;
  const data = await fetchPost(postId);
  const valid = validate(data);
  expect(describeErrors(validate.errors), 'the answer is valid against MicroblogPostLookup').toEqual([]);
  expect(valid).toBe(true);
  return { data, asked: fake.requests.map((request) => request.url) };
}

describe('the fxtwitter adapter', () => {
  it("asks GET {FXTWITTER_URL}/i/status/{id} and maps the documented status: counts it has, null for quotes, bookmarks, verified, followers; a photo's altText", async () => {
    const { data, asked } = await lookup('1580661436132757506', json(200, status));
    expect(asked).toEqual(['/fx/i/status/1580661436132757506']);
    expect(data).toEqual({
      post: {
        id: '1580661436132757506',
        url: 'https://twitter.com/Twitter/status/1580661436132757506',
        text: 'a hit Tweet',
        language: 'en',
        created_at: '2022-10-13T20:47:08Z',
        author: { id: '783214', username: 'Twitter', display_name: 'Twitter', verified: null, followers: null },
        metrics: { replies: 4675, reposts: 2422, quotes: null, likes: 43852, bookmarks: null, views: null },
        media: [{ type: 'photo', url: 'https://pbs.twimg.com/media/Fe-jMcGWQAAFWoG.jpg', preview_url: null, alt_text: 'a heart that represents the Twitter like button with ten likes' }],
        in_reply_to_post_id: null,
        quoted_post_id: null,
        conversation_id: '1580661436132757506',
      },
    });
  });

  it('a reply with a quote, a video and a gif: replying_to_status, quote.id, thumbnail_url as preview, lang null stays null, the thread root unknown', async () => {
    const { data } = await lookup('1548117889437208581', json(200, replyWithVideo));
    expect(data).toEqual({
      post: {
        id: '1548117889437208581',
        url: 'https://twitter.com/dangeredwolf/status/1548117889437208581',
        text: '@FixTweet Here it is with a video and a quote',
        language: null,
        created_at: '2022-07-15T23:58:45Z',
        author: { id: '3784131322', username: 'dangeredwolf', display_name: 'dangered wolf', verified: null, followers: null },
        metrics: { replies: 3, reposts: 1, quotes: null, likes: 27, bookmarks: null, views: 4811 },
        media: [
          { type: 'video', url: 'https://video.twimg.com/ext_tw_video/1548117861473845249/pu/vid/720x1280/8ErVgBP7yhd9uEWN.mp4?tag=12', preview_url: 'https://pbs.twimg.com/ext_tw_video_thumb/1548117861473845249/pu/img/o2ooaJ9Ig1HRW1Ba.jpg', alt_text: null },
          { type: 'gif', url: 'https://video.twimg.com/tweet_video/FXt5nKdWQAAK1fS.mp4', preview_url: 'https://pbs.twimg.com/tweet_video_thumb/FXt5nKdWQAAK1fS.jpg', alt_text: null },
        ],
        in_reply_to_post_id: '1548116815154151424',
        quoted_post_id: '1547514042146865153',
        conversation_id: null,
      },
    });
  });

  it.each([
    { name: 'code 404 NOT_FOUND (answered 404) is 404 upstream_not_found', answer: json(404, notFound), code: 'upstream_not_found', message: 'FxTwitter found nothing by that name.' },
    { name: 'code 401 PRIVATE_TWEET (answered 401) is 404 upstream_not_found, not a refused credential', answer: json(401, privateTweet), code: 'upstream_not_found', message: 'FxTwitter found nothing by that name.' },
    { name: 'code 404 in a 200 answer is 404 upstream_not_found', answer: json(200, notFound), code: 'upstream_not_found', message: 'FxTwitter found nothing by that name.' },
    { name: 'code 500 API_FAIL (answered 500) is 502 upstream_failed', answer: json(500, apiFail), code: 'upstream_failed', message: 'FxTwitter answered 500.' },
    { name: 'code 500 in a 200 answer is 502 upstream_failed', answer: json(200, apiFail), code: 'upstream_failed', message: 'FxTwitter answered 500.' },
    { name: 'a 200 without a tweet is 502 upstream_failed', answer: json(200, { code: 200, message: 'OK' }), code: 'upstream_failed', message: 'FxTwitter answered no tweet.' },
    { name: 'a tweet without its author is 502 upstream_failed', answer: json(200, { ...status, tweet: { ...status.tweet, author: undefined } }), code: 'upstream_failed', message: 'FxTwitter answered a tweet without its author.' },
  ])('$name', async ({ answer, code, message }) => {
    fake.answer = answer;
    await expect(fetchPost('1580661436132757506')).rejects.toMatchObject({ code, message });
  });

  it('routed to another operation, it is no provider (503 provider_unavailable)', async () => {
    await expect(provider().fetch({ operationId: 'getPriceHistory', query: {}, signal: new AbortController().signal })).rejects.toMatchObject({ code: 'provider_unavailable' });
  });

  it.each(failureCases('FxTwitter', { headers: { 'Retry-After': '60' }, retryAfter: '60' }))('$name', async (failure) => {
    fake.answer = failure.answer;
    await expectProviderFailure(provider(), { operationId: 'getMicroblogPost', query: { post_id: '1580661436132757506' } }, failure, '127.0.0.1');
  });
});

describe('fxtwitterConfig', () => {
  it('is null when FXTWITTER_URL is unset (no default), the URL when set, and a ConfigError naming FXTWITTER_URL when it is not an http(s) URL', () => {
    expect(fxtwitterConfig({})).toBeNull();
    expect(fxtwitterConfig({ FXTWITTER_URL: 'https://api.fxtwitter.com/' })).toEqual({ url: 'https://api.fxtwitter.com' });
    expect(() => fxtwitterConfig({ FXTWITTER_URL: 'api.fxtwitter.com' })).toThrow(ConfigError);
    expect(() => fxtwitterConfig({ FXTWITTER_URL: 'api.fxtwitter.com' })).toThrow(/^FXTWITTER_URL must be an http\(s\) URL/);
  });
});
