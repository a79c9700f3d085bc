/**
 * Makes an example's or a generated `data` agree with the request, field by field, as the server
 * would answer it: echoed identifiers and URLs, `formats` and `include` selecting fields, lists cut
 * at `limit`, and the records a submission or an update creates built from its body.
 */
import type { components } from '../generated/types.ts';
import type { OperationId } from '../generated/operations.ts';
import { newMonitor, queuedJob, updatedMonitor } from '../lib/records.ts';
import { timestamp } from '../lib/timestamp.ts';
import { ALL_FORMATS } from '../server/providers/sandbox/web-page.ts';

type Job = components['schemas']['Job'];
type Monitor = components['schemas']['Monitor'];
type Data = Record<string, any>;

/** What the mock knows of a request that Prism accepted. */
export interface SuccessRequest {
  operationId: OperationId;
  /** The operation's query parameters (Prism's selection parameters removed). */
  query: URLSearchParams;
  /** Path parameters by name (`job_id`, `monitor_id`). */
  params: Record<string, string>;
  body: Data | undefined;
  /** The operation's `x-credit-cost`. */
  creditCost: number;
  now: number;
}



function list(text: string | null, fallback: string): string[] {
  return [...new Set((text || fallback).split(',').map((item) => item.trim()).filter(Boolean))];
}

function limitOf(request: SuccessRequest, fallback: number): number {
  const limit = Number(request.query.get('limit') ?? fallback);
  return Number.isInteger(limit) && limit > 0 ? limit : fallback;
}

/** Cuts `items` at `limit`; a list that was cut has a next page, so `next_cursor` must not be null. */
function cut(data: Data, field: string, limit: number, cursorExample = 'eyJwIjoyfQ'): void {
  if (!Array.isArray(data[field]) || data[field].length <= limit) return;
  data[field] = data[field].slice(0, limit);
  if ('next_cursor' in data && data.next_cursor === null) data.next_cursor = cursorExample;
}

function isHttpUrl(text: unknown): boolean {
  try {
    const url = new URL(String(text));
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** A job as a submission creates it, `queued`, exactly as the server's job handlers build it. */
function submittedJob(kind: Job['kind'], request: SuccessRequest): Job {
  const body = request.body ?? {};
  const urls: string[] = Array.isArray(body.urls) ? body.urls : [];
  const fields: Partial<Job> = kind === 'crawl' ? { url: body.url }
    : kind === 'agent' ? { url: body.url, pages_total: 0, webhook_url: null }
    : { pages_total: new Set(urls.filter(isHttpUrl)).size, invalid_urls: body.ignore_invalid_urls === true ? urls.filter((url) => !isHttpUrl(url)) : [] };
  return queuedJob(kind, request.now, request.creditCost, body, fields);
}

/** The monitor of `data` with the body of a `PATCH` applied, as the server applies it, never created after now. */
function monitorUpdatedBy(monitor: Monitor, request: SuccessRequest): Monitor {
  const next = updatedMonitor({ ...monitor, id: request.params.monitor_id! }, request.body ?? {}, request.now);
  const now = timestamp(request.now);
  return next.created_at > now ? { ...next, created_at: now } : next;
}

function conformDocument(document: Data, request: SuccessRequest): void {
  const url = request.query.get('url')!;
  const formats = list(request.query.get('formats'), 'markdown,metadata');
  document.url = url;
  for (const format of ALL_FORMATS) if (!formats.includes(format)) delete document[format];
  if (document.metadata) Object.assign(document.metadata, { source_url: url, url });
}

function conformSearch(data: Data, request: SuccessRequest): void {
  const sources = list(request.query.get('sources'), 'web');
  const includeContent = request.query.get('include_content') === 'true';
  data.query = request.query.get('query');
  cut(data, 'results', limitOf(request, 5) * sources.length);
  const perSource = Math.ceil(data.results.length / sources.length);
  data.results.forEach((result: Data, index: number) => {
    result.source = sources[Math.floor(index / perSource)];
    result.position = (index % perSource) + 1;
    if (!includeContent) result.markdown = null;
    if (result.source !== 'images') result.image_url = null;
  });
}

function conformMap(data: Data, request: SuccessRequest): void {
  data.url = request.query.get('url');
  cut(data, 'links', limitOf(request, 1000));
  if (request.query.get('sitemap') === 'only') for (const link of data.links) Object.assign(link, { title: null, description: null });
}

const WEEK_MS = 7 * 86_400_000;

/** The event moved by whole weeks until it is upcoming (it ends after `now`) or past, as `time` asks. */
function inTime(event: Data, time: string, now: number): void {
  const ends = (): number => Date.parse(event.end_time ?? event.start_time);
  const shift = (weeks: number): void => {
    for (const field of ['start_time', 'end_time']) if (event[field]) event[field] = timestamp(Date.parse(event[field]) + weeks * WEEK_MS);
  };
  if (time === 'upcoming' && ends() <= now) shift(Math.floor((now - ends()) / WEEK_MS) + 1);
  if (time === 'past' && ends() > now) shift(-(Math.floor((ends() - now) / WEEK_MS) + 1));
}

function conformSocialEvents(data: Data, request: SuccessRequest): void {
  const include = list(request.query.get('include'), '');
  const time = request.query.get('time') ?? 'upcoming';
  data.source_url = request.query.get('url');
  cut(data, 'events', limitOf(request, 20));
  for (const event of data.events) {
    inTime(event, time, request.now);
    for (const field of ['description', 'location', 'counts']) if (!include.includes(field)) event[field] = null;
  }
  data.events.sort((a: Data, b: Data) => (time === 'upcoming' ? a.start_time.localeCompare(b.start_time) : b.start_time.localeCompare(a.start_time)));
}

/** Per operation: how `data` is made to agree with the request. */
const CONFORM: Record<OperationId, (data: Data, request: SuccessRequest) => Data | void> = {
  scrapeWebPage: conformDocument,
  searchWeb: conformSearch,
  mapWebsite: conformMap,
  extractWebData: (data, request) => {
    data.url = request.query.get('url');
    if (data.metadata) Object.assign(data.metadata, { source_url: data.url, url: data.url });
  },
  listCollectionVideos: (data, request) => {
    data.collection.id = request.query.get('collection_id');
    cut(data, 'videos', limitOf(request, 20));
  },
  getPriceHistory: (data, request) => {
    data.symbol = request.query.get('symbol');
    data.interval = request.query.get('interval') ?? '1d';
  },
  getMicroblogPost: (data, request) => {
    data.post.id = request.query.get('post_id');
  },
  listSocialEvents: conformSocialEvents,
  crawlWebsite: (_data, request) => ({ job: submittedJob('crawl', request) }),
  batchScrapeWebPages: (_data, request) => ({ job: submittedJob('batch_scrape', request) }),
  runWebAgent: (_data, request) => ({ job: submittedJob('agent', request) }),
  listJobs: (data, request) => cut(data, 'jobs', limitOf(request, 20)),
  getJob: (data, request) => {
    data.job.id = request.params.job_id;
    cut(data, 'pages', limitOf(request, 20));
  },
  deleteJob: (data, request) => {
    data.job.id = request.params.job_id;
  },
  createMonitor: (_data, request) => ({ monitor: newMonitor(request.body ?? {}, request.now) }),
  listMonitors: (data, request) => cut(data, 'monitors', limitOf(request, 20)),
  getMonitor: (data, request) => {
    data.monitor.id = request.params.monitor_id;
  },
  updateMonitor: (data, request) => ({ monitor: monitorUpdatedBy(data.monitor, request) }),
  deleteMonitor: (data, request) => {
    data.monitor.id = request.params.monitor_id;
  },
};

/** `data` (an example's or generated) made to agree with the request; a new object, `data` is left alone. */
export function conformData(data: Data, request: SuccessRequest): Data {
  const copy = structuredClone(data);
  return CONFORM[request.operationId](copy, request) ?? copy;
}
