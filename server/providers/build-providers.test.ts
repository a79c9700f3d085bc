/**
 * The wiring of the adapters, through the real app (test-support/test-server.ts builds its
 * providers with buildProviders, as main.ts does) and fake upstreams on loopback: an adapter serves
 * its operation for live keys as soon as its variables are set, PROVIDER_ROUTES overrides the
 * default routes, and start-up says which provider serves each operation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../config.ts';
import { json, startFakeUpstream, type FakeUpstream } from '../test-support/fake-upstream.ts';
import { startTestSite, type TestSite } from '../test-support/test-site.ts';
import { startTestServer, type TestServer, type TestServerOptions } from '../test-support/test-server.ts';
import { defaultRoutes } from './build-providers.ts';
import { completion } from './openai/fixtures.ts';
import braveWeb from './brave/fixtures/web.json' with { type: 'json' };
import firecrawlSearch from './firecrawl/fixtures/search.json' with { type: 'json' };
import searxngWeb from './searxng/fixtures/web.json' with { type: 'json' };
import tiktokFirst from './tiktok/fixtures/item-list-first.json' with { type: 'json' };
import tiktokNotFound from './tiktok/fixtures/not-found.json' with { type: 'json' };
import twelveDataDaily from './twelvedata/fixtures/aapl-1day.json' with { type: 'json' };
import yahooDaily from './yahoo/fixtures/aapl-5d.json' with { type: 'json' };
import xTweet from './x/fixtures/tweet-with-video.json' with { type: 'json' };
import fxStatus from './fxtwitter/fixtures/status.json' with { type: 'json' };

const FIRST_RESULT = 'https://qdrant.tech/benchmarks/';

let searxng: FakeUpstream;
let brave: FakeUpstream;
let firecrawl: FakeUpstream;
let model: FakeUpstream;
let x: FakeUpstream;
let fxtwitter: FakeUpstream;
let site: TestSite;
const servers: TestServer[] = [];

beforeAll(async () => {
  [searxng, brave, firecrawl, model, site, x, fxtwitter] = await Promise.all([
    startFakeUpstream(json(200, searxngWeb)),
    startFakeUpstream(json(200, braveWeb)),
    startFakeUpstream(json(200, firecrawlSearch)),
    startFakeUpstream(json(200, completion({ content: '{"team_price_usd":49}' }))),
    startTestSite(),
    startFakeUpstream(json(200, xTweet)),
    startFakeUpstream(json(200, fxStatus)),
  ]);
});
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
  await Promise.all([searxng, brave, firecrawl, model, site, x, fxtwitter].map((running) => running.close()));
});

async function server(options: TestServerOptions): Promise<TestServer> {
  const started = await startTestServer({ web: {}, allowPrivateNetwork: true, ...options });
  servers.push(started);
  return started;
}

const upstreams = () => ({
  searxng: { searxng: { url: searxng.baseUrl } },
  brave: { brave: { url: brave.baseUrl, apiKey: 'BSA-test-key' } },
  firecrawl: { firecrawl: { url: firecrawl.baseUrl, apiKey: undefined } },
});

async function search(target: TestServer): Promise<{ status: number; body: any }> {
  const { secret } = await target.key({ sandbox: false });
  return target.call('/web/search?query=vector%20database%20benchmarks&limit=2', { key: secret });
}

describe('buildProviders, through the real app', () => {
  it('a live key\'s web/search answers 503 while no search adapter is configured', async () => {
    const answer = await search(await server({}));
    expect([answer.status, answer.body.error.code, answer.body.credits_used]).toEqual([503, 'provider_unavailable', 0]);
  });

  it.each(['searxng', 'brave', 'firecrawl'] as const)('%s serves web/search for live keys as soon as its variables are set', async (name) => {
    const fake = { searxng, brave, firecrawl }[name];
    const before = fake.requests.length;
    const answer = await search(await server({ upstreams: upstreams()[name] }));
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.data.results[0].url).toBe(FIRST_RESULT);
    expect(fake.requests.length).toBeGreaterThan(before);
  });

  it('with several search adapters set, web/search goes to the first of searxng, brave, firecrawl', async () => {
    const before = { searxng: searxng.requests.length, brave: brave.requests.length };
    const answer = await search(await server({ upstreams: { ...upstreams().brave, ...upstreams().firecrawl, ...upstreams().searxng } }));
    expect(answer.status).toBe(200);
    expect([searxng.requests.length > before.searxng, brave.requests.length - before.brave]).toEqual([true, 0]);
  });

  it('microblog/post goes to x when X_BEARER_TOKEN is set (even beside FxTwitter), to fxtwitter when only FXTWITTER_URL is set, and answers 503 without either', async () => {
    const post = async (target: TestServer) => target.call('/microblog/post?post_id=1260294888811347969', { key: (await target.key({ sandbox: false })).secret });
    const asked = () => [x.requests.length, fxtwitter.requests.length];
    const before = asked();
    const both = await post(await server({ upstreams: { x: { url: x.baseUrl, bearerToken: 'AAAA-test' }, fxtwitter: { url: fxtwitter.baseUrl } } }));
    expect([both.status, both.body.data?.post.url, asked()[0]! - before[0]!, asked()[1]! - before[1]!]).toEqual([200, 'https://x.com/Twitter/status/1260294888811347969', 1, 0]);
    const only = await post(await server({ upstreams: { fxtwitter: { url: fxtwitter.baseUrl } } }));
    expect([only.status, only.body.data?.post.url, asked()[1]! - before[1]!]).toEqual([200, 'https://twitter.com/Twitter/status/1580661436132757506', 1]);
    const none = await post(await server({}));
    expect([none.status, none.body.error.code, none.body.credits_used]).toEqual([503, 'provider_unavailable', 0]);
  });

  it('PROVIDER_ROUTES overrides the default: {"searchWeb":"brave"} uses Brave while SearXNG is set too', async () => {
    const before = { searxng: searxng.requests.length, brave: brave.requests.length };
    const answer = await search(await server({ upstreams: { ...upstreams().searxng, ...upstreams().brave }, routes: { searchWeb: 'brave' } }));
    expect(answer.status).toBe(200);
    expect([searxng.requests.length - before.searxng, brave.requests.length > before.brave]).toEqual([0, true]);
  });

  it('the openai adapter serves web/extract for live keys once OPENAI_BASE_URL and OPENAI_MODEL are set, reading the page through the web provider', async () => {
    const target = await server({ upstreams: { openai: { baseUrl: `${model.baseUrl}/v1`, apiKey: null, model: 'qwen2.5-7b-instruct' } } });
    const { secret } = await target.key({ sandbox: false });
    const answer = await target.call(`/web/extract?url=${encodeURIComponent(`${site.origin}/pricing`)}&prompt=${encodeURIComponent('The Team plan\'s price')}`, { key: secret });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.data.extracted).toEqual({ team_price_usd: 49 });
    const sent = model.requests.at(-1)!.body as { model: string; messages: { content: string }[] };
    expect(sent.model).toBe('qwen2.5-7b-instruct');
    expect(sent.messages.at(-1)!.content).toContain(`Page URL: ${site.origin}/pricing`);
  });

  it('without the web provider to read pages, web/extract answers 503 capability_unavailable, uncharged, and the model is not asked', async () => {
    const target = await startTestServer({ upstreams: { openai: { baseUrl: `${model.baseUrl}/v1`, apiKey: null, model: 'm' } } });
    servers.push(target);
    const before = model.requests.length;
    const { secret } = await target.key({ sandbox: false });
    const answer = await target.call(`/web/extract?url=${encodeURIComponent(`${site.origin}/pricing`)}&prompt=prices`, { key: secret });
    expect([answer.status, answer.body.error.code, answer.body.credits_used]).toEqual([503, 'capability_unavailable', 0]);
    expect(answer.body.error.message).toBe('Reading pages needs the web provider, and none is configured; no credits were used.');
    expect(model.requests.length).toBe(before);
  });

  it('a live key\'s shortvideo/collection/videos, 503 without an adapter, is served by tiktok once TIKTOK_URL is set: charged; a missing collection 404 and another query\'s cursor 422, uncharged', async () => {
    const tiktok = await startFakeUpstream(json(200, tiktokFirst));
    try {
      const path = '/shortvideo/collection/videos?collection_id=7301245839176508161&limit=2';
      const without = await server({});
      const unserved = await without.call(path, { key: (await without.key({ sandbox: false })).secret });
      expect([unserved.status, unserved.body.error.code]).toEqual([503, 'provider_unavailable']);
      const target = await server({ upstreams: { tiktok: { url: tiktok.baseUrl, cookie: undefined } } });
      const { secret, id } = await target.key({ sandbox: false, credits: 10 });
      const answer = await target.call(path, { key: secret });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect([answer.body.data.videos.map((video: { id: string }) => video.id), answer.body.credits_used]).toEqual([['7423918845120019745', '7419027736154410273'], 1]);
      const otherQuery = await target.call(`/shortvideo/collection/videos?collection_id=111&limit=2&cursor=${answer.body.data.next_cursor}`, { key: secret });
      expect([otherQuery.status, otherQuery.body.error.code, otherQuery.body.credits_used]).toEqual([422, 'invalid_parameters', 0]);
      tiktok.answer = json(200, tiktokNotFound);
      const missing = await target.call(path, { key: secret });
      expect([missing.status, missing.body.error.code, missing.body.credits_used]).toEqual([404, 'upstream_not_found', 0]);
      expect(await target.stores.ledger.balance(id)).toBe(9);
    } finally {
      await tiktok.close();
    }
  });

  it('a route to an adapter whose variables are not set stops start-up, naming PROVIDER_ROUTES', async () => {
    await expect(startTestServer({ web: {}, upstreams: upstreams().searxng, routes: { searchWeb: 'brave' } })).rejects.toThrow(ConfigError);
    await expect(startTestServer({ web: {}, routes: { extractWebData: 'openai' } })).rejects.toThrow(/^PROVIDER_ROUTES routes extractWebData to "openai", which is not a provider \(known: web\)/);
  });

  it('start-up logs once which provider serves each operation for live keys and which answer 503', async () => {
    const target = await server({ upstreams: { ...upstreams().searxng, openai: { baseUrl: `${model.baseUrl}/v1`, apiKey: null, model: 'm' } } });
    const lines = target.logLines.filter((line) => String(line.msg).startsWith('live keys:'));
    expect(lines).toHaveLength(1);
    expect(lines[0]!.level).toBe(30);
    expect(lines[0]!.msg).toBe(
      'live keys: scrapeWebPage → web, searchWeb → searxng, mapWebsite → web, extractWebData → openai, crawlWebsite → web, batchScrapeWebPages → web, runWebAgent → openai; '
      + '503 provider_unavailable: listCollectionVideos, getPriceHistory, getMicroblogPost, listSocialEvents',
    );
    expect(lines[0]!.providers).toMatchObject({ searchWeb: 'searxng', extractWebData: 'openai', getPriceHistory: null });
  });
});

describe('finance/history adapters, through the real app', () => {
  let yahoo: FakeUpstream;
  let twelvedata: FakeUpstream;
  beforeAll(async () => {
    [yahoo, twelvedata] = await Promise.all([startFakeUpstream(json(200, yahooDaily)), startFakeUpstream(json(200, twelveDataDaily))]);
  });
  afterAll(async () => { await Promise.all([yahoo.close(), twelvedata.close()]); });

  async function priceHistory(target: TestServer): Promise<{ status: number; body: any }> {
    const { secret } = await target.key({ sandbox: false });
    return target.call('/finance/history?symbol=AAPL&start=2026-10-05&end=2026-10-09', { key: secret });
  }

  it.each(['yahoo', 'twelvedata'] as const)('%s serves finance/history for live keys as soon as its variables are set', async (name) => {
    const fake = { yahoo, twelvedata }[name];
    const before = fake.requests.length;
    const config = name === 'yahoo' ? { yahoo: { url: yahoo.baseUrl } } : { twelvedata: { url: twelvedata.baseUrl, apiKey: 'td-test-key' } };
    const answer = await priceHistory(await server({ upstreams: config }));
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect([answer.body.data.symbol, answer.body.data.points.length, answer.body.credits_used]).toEqual(['AAPL', 5, 1]);
    expect(fake.requests.length).toBe(before + 1);
  });

  it('with both set, finance/history goes to yahoo first; {"getPriceHistory":"twelvedata"} overrides it', async () => {
    const both = { yahoo: { url: yahoo.baseUrl }, twelvedata: { url: twelvedata.baseUrl, apiKey: 'td-test-key' } };
    const before = { yahoo: yahoo.requests.length, twelvedata: twelvedata.requests.length };
    expect((await priceHistory(await server({ upstreams: both }))).status).toBe(200);
    expect([yahoo.requests.length - before.yahoo, twelvedata.requests.length - before.twelvedata]).toEqual([1, 0]);
    expect((await priceHistory(await server({ upstreams: both, routes: { getPriceHistory: 'twelvedata' } }))).status).toBe(200);
    expect([yahoo.requests.length - before.yahoo, twelvedata.requests.length - before.twelvedata]).toEqual([1, 1]);
  });

  // Built on its documented URL when PROVIDER_ROUTES routes to it: config.test.ts, YAHOO_FINANCE_URL.
  it('yahoo (no key) is off by default', async () => {
    const off = await server({});
    expect(off.logLines.find((line) => String(line.msg).startsWith('live keys:'))!.providers).toMatchObject({ getPriceHistory: null });
  });
});

describe('defaultRoutes', () => {
  it.each([
    { built: [], routes: {} },
    { built: ['web'], routes: { scrapeWebPage: 'web', mapWebsite: 'web', crawlWebsite: 'web', batchScrapeWebPages: 'web' } },
    { built: ['firecrawl', 'brave'], routes: { searchWeb: 'brave' } },
    { built: ['brave', 'searxng'], routes: { searchWeb: 'searxng' } },
    { built: ['openai'], routes: { extractWebData: 'openai', runWebAgent: 'openai' } },
    { built: ['tiktok'], routes: { listCollectionVideos: 'tiktok' } },
    { built: ['twelvedata'], routes: { getPriceHistory: 'twelvedata' } },
    { built: ['twelvedata', 'yahoo'], routes: { getPriceHistory: 'yahoo' } },
    { built: ['meetup'], routes: { listSocialEvents: 'meetup' } },
    { built: ['fxtwitter', 'x'], routes: { getMicroblogPost: 'x' } },
    { built: ['fxtwitter'], routes: { getMicroblogPost: 'fxtwitter' } },
  ])('$built → $routes', ({ built, routes }) => {
    expect(defaultRoutes(built)).toEqual(routes);
  });
});
