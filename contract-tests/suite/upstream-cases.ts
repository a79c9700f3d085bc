/**
 * Cases for the `server-upstreams` target only: the real server with a live key whose `web/search`,
 * `web/extract` and `microblog/post` go through the searxng, openai and x adapters to fakes on loopback
 * (upstream-fakes.ts). They show the adapters really answered: SearXNG's documented results, the
 * model's answer about the test site's page, and what needs a search provider now accepted.
 */
import { expect } from 'vitest';
import { contractOperations, type ContractOperation } from '../contract.ts';
import type { ContractCase } from './cases.ts';
import { CASE_SITE_ORIGIN } from './targets.ts';
import { JSON_MODE_ANSWER, X_MISSING_POST_ID } from './upstream-fakes.ts';

function operation(operationId: string): ContractOperation {
  return contractOperations().find((candidate) => candidate.operationId === operationId)!;
}

const search = operation('searchWeb');
const extract = operation('extractWebData');
const createMonitor = operation('createMonitor');
const microblogPost = operation('getMicroblogPost');
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
