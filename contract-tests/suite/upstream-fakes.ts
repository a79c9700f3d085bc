/**
 * The upstreams of the `server-upstreams` target, on loopback (server/test-support/fake-upstream.ts):
 * a SearXNG answering `/search` with the adapter's documented fixtures (by category), and an
 * Yahoo Finance answering `/v8/finance/chart/{symbol}` with its documented charts (AAPL, EURUSD=X;
 * others its 404 `Not Found`), and an OpenAI-compatible model server answering `/chat/completions` with the API reference's example
 * completion carrying a valid answer: for a `json_schema` request, a value made deterministically
 * from the schema (the sandbox's filler); for `json_object`, a small fixed object; and TikTok's web
 * app answering `/api/collection/item_list/` with the adapter's recorded-shape fixtures; and a
 * Meetup GraphQL endpoint at `/gql-ext` answering every group with the meetup adapter's documented upcoming page
 * (and its last, past page for `status: ["PAST"]`), and the group `no-such-group` with
 * `groupByUrlname: null`; and an X API answering `GET /2/tweets/{id}` with its documented posts
 * (X_FAKE_TOKEN required).
 */
import type { ServerResponse } from 'node:http';
import { completion } from '../../server/providers/openai/fixtures.ts';
import { sampleFromSchema } from '../../server/providers/sandbox/json-schema-sample.ts';
import { SeededRandom } from '../../server/providers/sandbox/seeded.ts';
import meetupNoGroup from '../../server/providers/meetup/fixtures/no-group.json' with { type: 'json' };
import meetupPast from '../../server/providers/meetup/fixtures/past.json' with { type: 'json' };
import meetupUpcoming from '../../server/providers/meetup/fixtures/upcoming.json' with { type: 'json' };
import images from '../../server/providers/searxng/fixtures/images.json' with { type: 'json' };
import news from '../../server/providers/searxng/fixtures/news.json' with { type: 'json' };
import web from '../../server/providers/searxng/fixtures/web.json' with { type: 'json' };
import tiktokFirst from '../../server/providers/tiktok/fixtures/item-list-first.json' with { type: 'json' };
import tiktokLast from '../../server/providers/tiktok/fixtures/item-list-last.json' with { type: 'json' };
import xNotFound from '../../server/providers/x/fixtures/not-found.json' with { type: 'json' };
import xReply from '../../server/providers/x/fixtures/reply-with-photos.json' with { type: 'json' };
import xVideo from '../../server/providers/x/fixtures/tweet-with-video.json' with { type: 'json' };
import yahooAapl from '../../server/providers/yahoo/fixtures/aapl-5d.json' with { type: 'json' };
import yahooEurusd from '../../server/providers/yahoo/fixtures/eurusd-1mo.json' with { type: 'json' };
import yahooNotFound from '../../server/providers/yahoo/fixtures/not-found.json' with { type: 'json' };
import { json, startFakeUpstream, type FakeUpstream, type RecordedRequest } from '../../server/test-support/fake-upstream.ts';

/** What the fake model answers a prompt alone (JSON mode). */
export const JSON_MODE_ANSWER = { answer: 'The fake model server read the page.' };

/** SearXNG's categories as the adapter asks them: news and images their own fixture, the rest the web one. */
const BY_CATEGORY: Record<string, unknown> = { news, images };

function notFound(request: RecordedRequest, response: ServerResponse): void {
  json(404, { error: `no ${request.method} ${request.url} on this fake` })(request, response);
}

export function startFakeSearxng(): Promise<FakeUpstream> {
  return startFakeUpstream((request, response) => {
    const url = new URL(request.url, 'http://searxng.invalid');
    if (request.method !== 'GET' || url.pathname !== '/search' || url.searchParams.get('format') !== 'json') return notFound(request, response);
    json(200, BY_CATEGORY[url.searchParams.get('categories') ?? ''] ?? web)(request, response);
  });
}

/** Yahoo's documented chart answers by symbol; any other symbol its 404 `chart.error` `Not Found`. */
const YAHOO_CHARTS: Record<string, unknown> = { AAPL: yahooAapl, 'EURUSD=X': yahooEurusd };

export function startFakeYahoo(): Promise<FakeUpstream> {
  return startFakeUpstream((request, response) => {
    const url = new URL(request.url, 'http://yahoo.invalid');
    const symbol = /^\/v8\/finance\/chart\/([^/]+)$/.exec(url.pathname)?.[1];
    if (request.method !== 'GET' || symbol === undefined) return notFound(request, response);
    const chart = YAHOO_CHARTS[decodeURIComponent(symbol)];
    json(chart === undefined ? 404 : 200, chart ?? yahooNotFound)(request, response);
  });
}

interface ChatRequest {
  response_format?: { type: 'json_object' } | { type: 'json_schema'; json_schema: { schema: Record<string, unknown> } };
}

/** The model's answer to one request: valid for its schema, the same for the same schema. */
export function fakeModelAnswer(body: ChatRequest): unknown {
  const format = body.response_format;
  if (format?.type !== 'json_schema') return JSON_MODE_ANSWER;
  const schema = format.json_schema.schema;
  return sampleFromSchema(new SeededRandom(JSON.stringify(schema)), schema);
}

/** A model server under `{baseUrl}/v1`. */
export function startFakeModel(): Promise<FakeUpstream> {
  return startFakeUpstream((request, response) => {
    if (request.method !== 'POST' || request.url !== '/v1/chat/completions') return notFound(request, response);
    json(200, completion({ content: JSON.stringify(fakeModelAnswer(request.body as ChatRequest)) }))(request, response);
  });
}

/**
 * TikTok's web app: `/api/collection/item_list/` answers the first page (`hasMore`, cursor "2") at
 * cursor 0 and the last page after it, whatever the collection.
 */
export function startFakeTiktok(): Promise<FakeUpstream> {
  return startFakeUpstream((request, response) => {
    const url = new URL(request.url, 'http://tiktok.invalid');
    if (request.method !== 'GET' || url.pathname !== '/api/collection/item_list/' || url.searchParams.get('aid') !== '1988') return notFound(request, response);
    json(200, url.searchParams.get('cursor') === '0' ? tiktokFirst : tiktokLast)(request, response);
  });
}

/** The group the fake Meetup does not know. */
export const MEETUP_UNKNOWN_GROUP = 'no-such-group';

interface MeetupRequest {
  variables?: { urlname?: string; status?: string[] };
}

/** Meetup's GraphQL endpoint under `{baseUrl}/gql-ext`. */
export function startFakeMeetup(): Promise<FakeUpstream> {
  return startFakeUpstream((request, response) => {
    if (request.method !== 'POST' || request.url !== '/gql-ext') return notFound(request, response);
    const variables = (request.body as MeetupRequest | undefined)?.variables ?? {};
    if (variables.urlname === MEETUP_UNKNOWN_GROUP) return json(200, meetupNoGroup)(request, response);
    json(200, variables.status?.length === 1 && variables.status[0] === 'PAST' ? meetupPast : meetupUpcoming)(request, response);
  });
}

/** The bearer token the `server-upstreams` target gives the x adapter; the fake X refuses any other (401). */
export const X_FAKE_TOKEN = 'contract-suite-x-bearer';
/** The post the fake X says does not exist (its documented resource-not-found answer). */
export const X_MISSING_POST_ID = xNotFound.errors[0]!.resource_id;

/** X API v2: the documented reply for its id, the not-found problem for X_MISSING_POST_ID, the documented post with a video for any other id. */
export function startFakeX(): Promise<FakeUpstream> {
  return startFakeUpstream((request, response) => {
    const url = new URL(request.url, 'http://x.invalid');
    const id = /^\/2\/tweets\/(\d+)$/.exec(url.pathname)?.[1];
    if (request.method !== 'GET' || id === undefined) return notFound(request, response);
    if (request.headers.authorization !== `Bearer ${X_FAKE_TOKEN}`) return json(401, { title: 'Unauthorized', type: 'about:blank', status: 401, detail: 'Unauthorized' })(request, response);
    json(200, id === X_MISSING_POST_ID ? xNotFound : id === xReply.data.id ? xReply : xVideo)(request, response);
  });
}
