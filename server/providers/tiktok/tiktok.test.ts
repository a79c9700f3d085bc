import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { describeErrors, validatorAt } from '../../../contract-tests/contract.ts';
import { errorCatalog } from '../../../generated/errors.ts';
import { ConfigError } from '../../config.ts';
import { capturingLogger, json, startFakeUpstream, type FakeAnswer, type FakeUpstream } from '../../test-support/fake-upstream.ts';
import { wrapCursor } from '../../upstream/upstream-cursor.ts';
import { failureCases, TEST_LIMITS } from '../search/search-adapter.cases.ts';
import { ProviderError, type DataProvider } from '../types.ts';
import { BROWSER_USER_AGENT, createTiktokProvider, tiktokConfig } from './index.ts';
import first from './fixtures/item-list-first.json' with { type: 'json' };
import last from './fixtures/item-list-last.json' with { type: 'json' };
import empty from './fixtures/item-list-empty.json' with { type: 'json' };
import notFound from './fixtures/not-found.json' with { type: 'json' };
import loginRequired from './fixtures/login-required.json' with { type: 'json' };

const validate = validatorAt('/components/schemas/ShortVideoCollectionVideos');
const COOKIE = 'sessionid=3f9a1c2b7e6d5a4b; tt_csrf_token=Xy12-ab';
const COLLECTION = { id: '7301245839176508161', title: null, author: null, video_count: null, url: null };

let fake: FakeUpstream;
beforeAll(async () => { fake = await startFakeUpstream(); });
afterAll(async () => { await fake.close(); });

function provider(logger = pino({ level: 'silent' }), cookie: string | undefined = COOKIE): DataProvider {
  return createTiktokProvider({ url: fake.baseUrl, cookie }, { logger, limits: TEST_LIMITS });
}

async function list(query: Record<string, unknown>, answer: FakeAnswer) {
  fake.answer = answer;
  fake.requests.length = 0;
  const data = await provider().fetch({ operationId: 'listCollectionVideos', query, signal: new AbortController().signal });
  const valid = validate(data);
  expect(describeErrors(validate.errors), 'the answer is valid against ShortVideoCollectionVideos').toEqual([]);
  expect(valid).toBe(true);
  return { data: data as { collection: unknown; videos: Record<string, unknown>[]; next_cursor: string | null }, asked: fake.requests };
}

async function failure(answer: FakeAnswer, logger = pino({ level: 'silent' })): Promise<ProviderError> {
  fake.answer = answer;
  const error = await provider(logger).fetch({ operationId: 'listCollectionVideos', query: { collection_id: '7301245839176508161' }, signal: new AbortController().signal }).catch((reason: unknown) => reason);
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}

describe('the tiktok adapter', () => {
  it('asks GET /api/collection/item_list/?aid=1988&collectionId=…&count=…&cursor=0&sourceType=113 with a browser User-Agent and the Cookie, and maps every field of each item', async () => {
    const { data, asked } = await list({ collection_id: '7301245839176508161', limit: 2 }, json(200, first));
    expect(asked).toHaveLength(1);
    const url = new URL(asked[0]!.url, 'http://x');
    expect(url.pathname).toBe('/api/collection/item_list/');
    expect(Object.fromEntries(url.searchParams)).toEqual({ aid: '1988', collectionId: '7301245839176508161', count: '2', cursor: '0', sourceType: '113' });
    expect([asked[0]!.headers['user-agent'], asked[0]!.headers.cookie]).toEqual([BROWSER_USER_AGENT, COOKIE]);
    expect(data.collection).toEqual(COLLECTION);
    expect(data.videos).toEqual([
      {
        id: '7423918845120019745',
        url: 'https://www.tiktok.com/@chef.maya/video/7423918845120019745',
        description: '15-minute garlic butter salmon 🐟 #weeknightdinner #salmon',
        author: { id: '6812345098761234433', username: 'chef.maya', display_name: 'Maya Cooks' },
        created_at: '2025-10-02T17:45:12Z',
        duration_seconds: 47,
        cover_url: first.itemList[0]!.video.cover,
        stats: { views: 1284000, likes: 96400, comments: 812, shares: 3150, saves: 14820 },
      },
      {
        id: '7419027736154410273',
        url: 'https://www.tiktok.com/@pastapapi/video/7419027736154410273',
        description: 'One-pan lemon orzo, no stirring needed #onepan #easyrecipes',
        author: { id: '7012938475610293847', username: 'pastapapi', display_name: 'Luca | Pasta Papi' },
        created_at: '2025-09-19T11:02:37Z',
        duration_seconds: 62,
        cover_url: first.itemList[1]!.video.cover,
        stats: { views: 356200, likes: 21870, comments: 240, shares: 1105, saves: null },
      },
    ]);
    expect(data.next_cursor).not.toBe('2');
    expect(data.next_cursor).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it("the next page sends TikTok's own cursor back, and the last page (hasMore false) has next_cursor null; fields TikTok leaves empty are null", async () => {
    const query = { collection_id: '7301245839176508161', limit: 2 };
    const { data: firstPage } = await list(query, json(200, first));
    const { data, asked } = await list({ ...query, cursor: firstPage.next_cursor }, json(200, last));
    expect(new URL(asked[0]!.url, 'http://x').searchParams.get('cursor')).toBe('2');
    expect(data).toEqual({
      collection: COLLECTION,
      videos: [{
        id: '7298110456723309826',
        url: 'https://www.tiktok.com/@chef.maya/video/7298110456723309826',
        description: null,
        author: { id: '6812345098761234433', username: 'chef.maya', display_name: null },
        created_at: null,
        duration_seconds: null,
        cover_url: null,
        stats: { views: 48900, likes: 2310, comments: null, shares: null, saves: null },
      }],
      next_cursor: null,
    });
  });

  it('limit over 30 asks TikTok for its most, 30; no limit asks the default 20', async () => {
    const { asked } = await list({ collection_id: '7301245839176508161', limit: 100 }, json(200, empty));
    expect(new URL(asked[0]!.url, 'http://x').searchParams.get('count')).toBe('30');
    const { asked: byDefault } = await list({ collection_id: '7301245839176508161' }, json(200, empty));
    expect(new URL(byDefault[0]!.url, 'http://x').searchParams.get('count')).toBe('20');
  });

  it('without TIKTOK_COOKIE no Cookie header is sent', async () => {
    fake.answer = json(200, empty);
    fake.requests.length = 0;
    await createTiktokProvider({ url: fake.baseUrl, cookie: undefined }, { logger: pino({ level: 'silent' }), limits: TEST_LIMITS }).fetch({ operationId: 'listCollectionVideos', query: { collection_id: '1' }, signal: new AbortController().signal });
    expect(fake.requests[0]!.headers.cookie).toBeUndefined();
  });

  it('an empty itemList with hasMore false is an empty page, not a failure', async () => {
    const { data } = await list({ collection_id: '7301245839176508161' }, json(200, empty));
    expect(data).toEqual({ collection: COLLECTION, videos: [], next_cursor: null });
  });

  it('no itemList at all with hasMore false is an empty page too (TikTok leaves empty lists out)', async () => {
    const { data } = await list({ collection_id: '7301245839176508161' }, json(200, { cursor: '0', hasMore: false, statusCode: 0 }));
    expect(data.videos).toEqual([]);
  });

  it("a cursor issued for another collection, or TikTok's raw cursor, is 422 invalid_parameters and TikTok is not asked", async () => {
    fake.requests.length = 0;
    const other = wrapCursor('listCollectionVideos', { collection_id: '111', limit: 2 }, '2');
    for (const cursor of [other, '2']) {
      const error = await provider().fetch({ operationId: 'listCollectionVideos', query: { collection_id: '7301245839176508161', limit: 2, cursor }, signal: new AbortController().signal }).catch((reason: unknown) => reason);
      expect([(error as ProviderError).code, errorCatalog[(error as ProviderError).code].status]).toEqual(['invalid_parameters', 422]);
    }
    expect(fake.requests).toHaveLength(0);
  });

  const bodyFailures: { name: string; answer: FakeAnswer; code: string; status: number; message: string }[] = [
    { name: 'statusCode 10201 in a 200 (no such collection) is 404 upstream_not_found', answer: json(200, notFound), code: 'upstream_not_found', status: 404, message: 'TikTok found nothing by that name.' },
    { name: 'status_code 10202 alone (page not found) is 404 upstream_not_found', answer: json(200, { status_code: 10202, status_msg: '' }), code: 'upstream_not_found', status: 404, message: 'TikTok found nothing by that name.' },
    { name: 'statusCode 10102 (a login asked) is 502 upstream_failed', answer: json(200, loginRequired), code: 'upstream_failed', status: 502, message: 'TikTok answered statusCode 10102 (it asks for a login).' },
    { name: 'an unknown non-zero statusCode is 502 upstream_failed naming it', answer: json(200, { statusCode: 10222, statusMsg: 'something else' }), code: 'upstream_failed', status: 502, message: 'TikTok answered statusCode 10222.' },
    { name: 'an empty 200 body (a blocked client) is 502 upstream_failed', answer: json(200, ''), code: 'upstream_failed', status: 502, message: 'TikTok answered an empty body.' },
    { name: 'statusCode 0 without an itemList or hasMore is 502 upstream_failed', answer: json(200, { statusCode: 0 }), code: 'upstream_failed', status: 502, message: 'TikTok answered JSON without an itemList.' },
    { name: 'hasMore true without a cursor is 502 upstream_failed', answer: json(200, { ...first, cursor: undefined }), code: 'upstream_failed', status: 502, message: 'TikTok answered hasMore without a cursor.' },
    { name: 'a JSON array is 502 upstream_failed', answer: json(200, []), code: 'upstream_failed', status: 502, message: 'TikTok answered JSON that is not an item list.' },
  ];

  it.each(bodyFailures)('$name', async ({ answer, code, status, message }) => {
    const error = await failure(answer);
    expect([errorCatalog[error.code].status, error.code, error.message]).toEqual([status, code, message]);
  });

  it('a login asked is logged at error level for the operator, naming TIKTOK_COOKIE but never its value', async () => {
    const { logger, lines, text } = capturingLogger();
    await failure(json(200, loginRequired), logger);
    expect(lines().find((line) => line.level === 50)).toMatchObject({ provider: 'TikTok', statusCode: 10102, msg: expect.stringContaining('TIKTOK_COOKIE') });
    expect(text()).not.toContain('3f9a1c2b7e6d5a4b');
  });

  it.each(failureCases('TikTok', { headers: { 'Retry-After': '60' }, retryAfter: '60' }))('$name', async (row) => {
    const error = await failure(row.answer);
    expect([errorCatalog[error.code].status, error.code, error.message]).toEqual([row.status, row.code, row.message]);
    if (row.headers) expect(error.headers).toEqual(row.headers);
    expect(error.message).not.toContain('127.0.0.1');
    expect(error.message).not.toContain('3f9a1c2b7e6d5a4b');
  });

  it('routed to another operation, it is no provider (503 provider_unavailable)', async () => {
    await expect(provider().fetch({ operationId: 'getPriceHistory', query: {}, signal: new AbortController().signal })).rejects.toMatchObject({ code: 'provider_unavailable' });
  });
});

describe('tiktokConfig', () => {
  const cases: { name: string; env: Record<string, string>; routes?: Record<string, string>; result?: unknown; error?: string }[] = [
    { name: 'off when nothing is set: a default deployment never calls TikTok', env: {}, result: null },
    { name: 'TIKTOK_URL turns it on, trailing slash dropped', env: { TIKTOK_URL: 'http://127.0.0.1:9300/' }, result: { url: 'http://127.0.0.1:9300', cookie: undefined } },
    { name: 'a PROVIDER_ROUTES route to tiktok turns it on with the public URL', env: {}, routes: { listCollectionVideos: 'tiktok' }, result: { url: 'https://www.tiktok.com', cookie: undefined } },
    { name: 'TIKTOK_COOKIE is kept as one header value, spaces included', env: { TIKTOK_URL: 'https://www.tiktok.com', TIKTOK_COOKIE: ` ${COOKIE} ` }, result: { url: 'https://www.tiktok.com', cookie: COOKIE } },
    { name: 'a bad TIKTOK_URL names it', env: { TIKTOK_URL: 'www.tiktok.com' }, error: 'TIKTOK_URL must be an http(s) URL without query or fragment' },
    { name: 'a cookie with a line break is refused without repeating it', env: { TIKTOK_URL: 'https://www.tiktok.com', TIKTOK_COOKIE: 'sessionid=abc\r\nX-Injected: 1' }, error: 'TIKTOK_COOKIE must be one Cookie header value' },
    { name: 'a cookie for an adapter that is off names TIKTOK_URL and PROVIDER_ROUTES', env: { TIKTOK_COOKIE: COOKIE }, error: 'TIKTOK_COOKIE is set but the tiktok adapter is off: set TIKTOK_URL, or route listCollectionVideos to "tiktok" in PROVIDER_ROUTES' },
  ];
  it.each(cases)('$name', ({ env, routes = {}, result, error }) => {
    const read = () => tiktokConfig(env, routes);
    if (error === undefined) expect(read()).toEqual(result);
    else {
      expect(read).toThrow(ConfigError);
      expect(read).toThrow(error);
      expect(read).not.toThrow(/abc|3f9a1c2b7e6d5a4b/);
    }
  });
});
