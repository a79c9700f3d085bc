/**
 * Cases for the `server-upstreams` target only: the real server with a live key whose `web/search`
 * and `web/extract` go through the searxng and openai adapters to fakes on loopback
 * (upstream-fakes.ts). They show the adapters really answered: SearXNG's documented results, the
 * model's answer about the test site's page, and what needs a search provider now accepted.
 */
import { expect } from 'vitest';
import { contractOperations, type ContractOperation } from '../contract.ts';
import type { ContractCase } from './cases.ts';
import { CASE_SITE_ORIGIN } from './targets.ts';
import { JSON_MODE_ANSWER, MEETUP_UNKNOWN_GROUP } from './upstream-fakes.ts';

function operation(operationId: string): ContractOperation {
  return contractOperations().find((candidate) => candidate.operationId === operationId)!;
}

const search = operation('searchWeb');
const extract = operation('extractWebData');
const createMonitor = operation('createMonitor');
const events = operation('listSocialEvents');
const PLANS_SCHEMA = JSON.stringify({
  type: 'object',
  properties: { plans: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' }, monthly_usd: { type: ['number', 'null'] } }, required: ['name', 'monthly_usd'] } } },
  required: ['plans'],
});

export const upstreamCases: ContractCase[] = [
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
];
