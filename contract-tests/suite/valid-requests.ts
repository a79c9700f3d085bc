/**
 * One valid request per operation, with what its success must show beyond the contract's schema.
 * Invalid variants of the shared cases are derived from these. Path parameters come from a
 * `prepare` step that creates the resource first, so the same request holds on any target.
 */
import { expect } from 'vitest';
import type { OperationId } from '../../generated/operations.ts';

export type { OperationId };

export interface CallResult {
  status: number;
  body: Record<string, any>;
  headers: Headers;
}

/** Makes a call against the target under test, with a valid API key. */
export type Call = (request: { method: string; path: string; query?: Record<string, string>; body?: unknown; headers?: Record<string, string> }) => Promise<CallResult>;

export interface ValidRequest {
  query?: Record<string, string>;
  body?: Record<string, unknown>;
  /** Creates what the request addresses and returns its path parameters. */
  prepare?: (call: Call) => Promise<Record<string, string>>;
  /** What the success data must show, beyond validating against the schema. */
  check: (data: Record<string, any>) => void;
  /** Another valid body for the same operation: an Idempotency-Key used for `body` may not be reused for it. */
  otherBody?: Record<string, unknown>;
}

async function createdJobId(call: Call): Promise<Record<string, string>> {
  const created = await call({ method: 'POST', path: '/web/crawl', body: { url: 'https://example.com/docs/', limit: 5 } });
  expect(created.status, 'crawl submission to prepare a job').toBe(200);
  return { job_id: created.body.data.job.id };
}

async function createdMonitorId(call: Call): Promise<Record<string, string>> {
  const created = await call({ method: 'POST', path: '/web/monitors', body: { url: 'https://example.com/pricing', cadence_minutes: 60 } });
  expect(created.status, 'monitor creation to prepare a monitor').toBe(200);
  return { monitor_id: created.body.data.monitor.id };
}

export const validRequests: Record<OperationId, ValidRequest> = {
  scrapeWebPage: {
    query: { url: 'https://example.com/blog/launch', formats: 'markdown,metadata' },
    check: (data) => expect(data.url).toMatch(/^https?:\/\//),
  },
  searchWeb: {
    query: { query: 'open source vector database benchmarks', limit: '3' },
    check: (data) => expect(Array.isArray(data.results)).toBe(true),
  },
  mapWebsite: {
    query: { url: 'https://example.com', limit: '100' },
    check: (data) => expect(Array.isArray(data.links)).toBe(true),
  },
  extractWebData: {
    query: { url: 'https://example.com/pricing', prompt: 'List the plans with their monthly prices' },
    check: (data) => expect(typeof data.extracted).toBe('object'),
  },
  crawlWebsite: {
    body: { url: 'https://example.com/docs/', limit: 10, max_depth: 2 },
    otherBody: { url: 'https://example.com/docs/', limit: 11, max_depth: 2 },
    check: (data) => {
      expect(data.job.kind).toBe('crawl');
      expect(data.job.status).toBe('queued');
    },
  },
  batchScrapeWebPages: {
    body: { urls: ['https://example.com/a', 'https://example.com/b'] },
    otherBody: { urls: ['https://example.com/a'] },
    check: (data) => {
      expect(data.job.kind).toBe('batch_scrape');
      expect(data.job.status).toBe('queued');
    },
  },
  listJobs: {
    query: { limit: '10' },
    check: (data) => expect(data).toHaveProperty('next_cursor'),
  },
  getJob: {
    prepare: createdJobId,
    check: (data) => expect(data.job.id).toMatch(/^job_/),
  },
  deleteJob: {
    prepare: createdJobId,
    check: (data) => expect(typeof data.deleted).toBe('boolean'),
  },
  runWebAgent: {
    body: { url: 'https://example.com', prompt: 'Who founded this company?' },
    otherBody: { url: 'https://example.com', prompt: 'When was this company founded?' },
    check: (data) => {
      expect(data.job.kind).toBe('agent');
      expect(data.job.status).toBe('queued');
    },
  },
  listMonitors: {
    query: { limit: '10' },
    check: (data) => expect(Array.isArray(data.monitors)).toBe(true),
  },
  createMonitor: {
    body: { url: 'https://example.com/pricing', name: 'Pricing page', cadence_minutes: 60 },
    otherBody: { url: 'https://example.com/pricing', name: 'Pricing page, hourly', cadence_minutes: 60 },
    check: (data) => expect(data.monitor.id).toMatch(/^mon_/),
  },
  getMonitor: {
    prepare: createdMonitorId,
    check: (data) => expect(data.monitor.id).toMatch(/^mon_/),
  },
  updateMonitor: {
    prepare: createdMonitorId,
    body: { status: 'paused' },
    otherBody: { status: 'active' },
    check: (data) => expect(data.monitor.id).toMatch(/^mon_/),
  },
  deleteMonitor: {
    prepare: createdMonitorId,
    check: (data) => expect(data.deleted).toBe(true),
  },
  listCollectionVideos: {
    query: { collection_id: 'summer-recipes-7301' },
    check: (data) => expect(Array.isArray(data.videos)).toBe(true),
  },
  getPriceHistory: {
    query: { symbol: 'AAPL', interval: '1d', range: '1mo' },
    check: (data) => expect(Array.isArray(data.points)).toBe(true),
  },
  getMicroblogPost: {
    query: { post_id: '1858392017465397248' },
    check: (data) => expect(typeof data.post.id).toBe('string'),
  },
  listSocialEvents: {
    query: { url: 'https://www.meetup.com/berlin-hikers/' },
    check: (data) => expect(Array.isArray(data.events)).toBe(true),
  },
};
