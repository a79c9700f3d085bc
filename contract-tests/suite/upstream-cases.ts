/**
 * Cases for the `server-upstreams` target only: the real server with a live key whose `web/search`
 * and `web/extract` go through the searxng and openai adapters, and `shortvideo/collection/videos`,
 * `finance/history`, `socialnet/events` and `microblog/post` through the tiktok, yahoo, meetup and x
 * adapters, to fakes on loopback (upstream-fakes.ts). They show the adapters
 * really answered: SearXNG's documented results, the model's answer about the test site's page,
 * TikTok's item list, and what needs a search provider now accepted.
 */
import { expect } from 'vitest';
import { contractOperations, type ContractOperation } from '../contract.ts';
import type { ContractCase } from './cases.ts';
import { CASE_SITE_ORIGIN } from './targets.ts';
import { JSON_MODE_ANSWER, MEETUP_UNKNOWN_GROUP, X_MISSING_POST_ID } from './upstream-fakes.ts';

function operation(operationId: string): ContractOperation {
  return contractOperations().find((candidate) => candidate.operationId === operationId)!;
}

const search = operation('searchWeb');
const extract = operation('extractWebData');
const createMonitor = operation('createMonitor');
const collectionVideos = operation('listCollectionVideos');
const history = operation('getPriceHistory');
const events = operation('listSocialEvents');
const microblogPost = operation('getMicroblogPost');
const PLANS_SCHEMA = JSON.stringify({
  type: 'object',
  properties: { plans: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' }, monthly_usd: { type: ['number', 'null'] } }, required: ['name', 'monthly_usd'] } } },
  required: ['plans'],
});

export const upstreamCases: ContractCase[] = [
  {
    name: "getPriceHistory (upstreams): Yahoo Finance's chart, every point oldest first, charged",
    operation: history,
    method: 'GET',
    path: history.path,
    query: { symbol: 'AAPL', range: '5d' },
    only: ['server-upstreams'],
    expected: {
      status: 200,
      check: ({ body }) => {
        expect(body.data).toMatchObject({ symbol: 'AAPL', currency: 'USD', exchange: 'NMS', instrument_type: 'EQUITY', timezone: 'America/New_York', interval: '1d' });
        expect(body.data.points.map((point: { timestamp: string; close: number }) => [point.timestamp, point.close])).toEqual([
          ['2026-10-05T13:30:00Z', 248.65], ['2026-10-06T13:30:00Z', 250.77], ['2026-10-07T13:30:00Z', 246.9], ['2026-10-08T13:30:00Z', 248.31], ['2026-10-09T13:30:00Z', 249.03],
        ]);
        expect([body.credits_used, body.cached]).toEqual([history.object['x-credit-cost'], false]);
      },
    },
  },
  {
    name: 'getPriceHistory (upstreams): a symbol Yahoo Finance does not know (chart.error Not Found) answers 404 upstream_not_found, uncharged',
    operation: history,
    method: 'GET',
    path: history.path,
    query: { symbol: 'NOSUCHSYMBOL' },
    only: ['server-upstreams'],
    expected: { status: 404, code: 'upstream_not_found', messageIncludes: ['Yahoo Finance'], check: ({ body }) => expect(body.credits_used).toBe(0) },
  },
  {
    name: "searchWeb (upstreams): SearXNG's results, in its order, numbered from 1, charged",
    operation: search,
    method: 'GET',
    path: search.path,
    query: { query: 'open source vector database benchmarks', limit: '2' },
    only: ['server-upstreams'],
    expected: {
      status: 200,
      check: ({ body }) => {
        expect(body.data.results.map((result: { url: string; position: number }) => [result.position, result.url])).toEqual([[1, 'https://qdrant.tech/benchmarks/'], [2, 'https://github.com/erikbern/ann-benchmarks']]);
        expect(body.data.results[0]).toMatchObject({ title: 'Vector Database Benchmarks - Qdrant', source: 'web', published_at: null, markdown: null });
        expect(body.credits_used).toBe(search.object['x-credit-cost']);
      },
    },
  },
  {
    name: "extractWebData (upstreams): a prompt's answer from the model, about the site's page, charged",
    operation: extract,
    method: 'GET',
    path: extract.path,
    query: { url: `${CASE_SITE_ORIGIN}/pricing`, prompt: 'List the plans with their monthly prices' },
    only: ['server-upstreams'],
    expected: {
      status: 200,
      check: ({ body }) => {
        expect(body.data.extracted).toEqual(JSON_MODE_ANSWER);
        expect(new URL(body.data.url).pathname).toBe('/pricing');
        expect(body.data.metadata.status_code).toBe(200);
        expect(body.credits_used).toBe(extract.object['x-credit-cost']);
      },
    },
  },
  {
    name: "extractWebData (upstreams): a schema's answer from the model, of the schema's shape",
    operation: extract,
    method: 'GET',
    path: extract.path,
    query: { url: `${CASE_SITE_ORIGIN}/pricing`, schema: PLANS_SCHEMA },
    only: ['server-upstreams'],
    expected: { status: 200, check: ({ body }) => expect(Array.isArray(body.data.extracted.plans)).toBe(true) },
  },
  {
    name: "listCollectionVideos (upstreams): TikTok's item list, mapped, with a next_cursor, charged",
    operation: collectionVideos,
    method: 'GET',
    path: collectionVideos.path,
    query: { collection_id: '7301245839176508161', limit: '2' },
    only: ['server-upstreams'],
    expected: {
      status: 200,
      check: ({ body }) => {
        expect(body.data.videos.map((video: { url: string }) => video.url)).toEqual(['https://www.tiktok.com/@chef.maya/video/7423918845120019745', 'https://www.tiktok.com/@pastapapi/video/7419027736154410273']);
        expect(body.data.videos[0].stats).toEqual({ views: 1284000, likes: 96400, comments: 812, shares: 3150, saves: 14820 });
        expect(typeof body.data.next_cursor).toBe('string');
        expect(body.credits_used).toBe(collectionVideos.object['x-credit-cost']);
      },
    },
  },
  {
    name: 'createMonitor (upstreams): mode search is accepted, a search provider being configured',
    operation: createMonitor,
    method: 'POST',
    path: createMonitor.path,
    body: { url: `${CASE_SITE_ORIGIN}/pricing`, mode: 'search', query: 'planner pricing', cadence_minutes: 60 },
    only: ['server-upstreams'],
    expected: { status: 200, check: ({ body }) => expect(body.data.monitor).toMatchObject({ mode: 'search', query: 'planner pricing' }) },
  },
  {
    name: "listSocialEvents (upstreams): Meetup's events of the group, in UTC, a wrapped cursor, charged",
    operation: events,
    method: 'GET',
    path: events.path,
    query: { url: 'https://www.meetup.com/berlinjs/', include: 'location,counts' },
    only: ['server-upstreams'],
    expected: {
      status: 200,
      check: ({ body }) => {
        expect(body.data.events.map((event: { id: string; start_time: string }) => [event.id, event.start_time])).toEqual([['304512345', '2026-12-03T18:00:00Z'], ['304512811', '2026-12-10T17:00:00Z'], ['304512987', '2026-12-17T18:00:00Z']]);
        expect(body.data.events[0]).toMatchObject({ location: { city: 'Berlin', country: 'Germany' }, counts: { going: 87, interested: null }, description: null });
        expect(typeof body.data.next_cursor).toBe('string');
        expect(body.credits_used).toBe(events.object['x-credit-cost']);
      },
    },
  },
  {
    name: 'listSocialEvents (upstreams): a URL on a host Meetup does not serve is 422 invalid_parameters, uncharged',
    operation: events,
    method: 'GET',
    path: events.path,
    query: { url: 'https://socialnet.example/kulturbrauerei.berlin' },
    only: ['server-upstreams'],
    expected: { status: 422, code: 'invalid_parameters', messageIncludes: ['socialnet/events serves meetup.com group URLs; socialnet.example is not one'], check: (answer) => expect(answer.body.credits_used).toBe(0) },
  },
  {
    name: 'listSocialEvents (upstreams): a group Meetup does not know is 404 upstream_not_found, uncharged',
    operation: events,
    method: 'GET',
    path: events.path,
    query: { url: `https://www.meetup.com/${MEETUP_UNKNOWN_GROUP}/` },
    only: ['server-upstreams'],
    expected: { status: 404, code: 'upstream_not_found', check: (answer) => expect(answer.body.credits_used).toBe(0) },
  },
  {
    name: "getMicroblogPost (upstreams): X's documented reply, its author, photo and GIF, charged",
    operation: microblogPost,
    method: 'GET',
    path: microblogPost.path,
    query: { post_id: '1445880548472328192' },
    only: ['server-upstreams'],
    expected: {
      status: 200,
      check: ({ body }) => {
        expect(body.data.post).toMatchObject({
          id: '1445880548472328192', url: 'https://x.com/XDevelopers/status/1445880548472328192', in_reply_to_post_id: '1445078208190291973', quoted_post_id: '1442182396523257861',
          author: { id: '2244994945', username: 'XDevelopers', display_name: 'Developers', verified: false, followers: 583423 },
        });
        expect(body.data.post.media.map((media: { type: string }) => media.type)).toEqual(['photo', 'gif']);
        expect(body.credits_used).toBe(microblogPost.object['x-credit-cost']);
      },
    },
  },
  {
    name: "getMicroblogPost (upstreams): X's resource-not-found problem (a 200) is 404 upstream_not_found, uncharged",
    operation: microblogPost,
    method: 'GET',
    path: microblogPost.path,
    query: { post_id: X_MISSING_POST_ID },
    only: ['server-upstreams'],
    expected: { status: 404, code: 'upstream_not_found', messageIncludes: ['X found nothing'], check: ({ body }) => expect(body.credits_used).toBe(0) },
  },
];
