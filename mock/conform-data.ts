/**
 * Makes an example's or a generated `data` agree with the request, field by field, as the server
 * would answer it: echoed identifiers and URLs, `formats` and `include` selecting fields, lists cut
 * at `limit`, and the records a submission or an update creates built from its body.
 */
import type { components } from '../generated/types.ts';
import type { OperationId } from '../generated/operations.ts';
import { ulid } from '../lib/request-id.ts';
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

const MONITOR_SCHEDULE_FIELDS = ['cadence_minutes', 'schedule_text', 'schedule_cron'] as const;
const MONITOR_UPDATABLE_FIELDS = ['name', 'webhook_url', 'query', 'goal', 'retention_days', 'judge_enabled', 'timezone'] as const;

function iso(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
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
  const invalidUrls = body.ignore_invalid_urls === true ? urls.filter((url) => !isHttpUrl(url)) : [];
  const at = iso(request.now);
  return {
    id: `job_${ulid(request.now)}`,
    kind,
    status: 'queued',
    url: kind === 'batch_scrape' ? null : body.url,
    created_at: at,
    updated_at: at,
    started_at: null,
    completed_at: null,
    pages_total: kind === 'batch_scrape' ? new Set(urls.filter(isHttpUrl)).size : kind === 'agent' ? 0 : null,
    pages_completed: 0,
    pages_failed: 0,
    credits_used: request.creditCost,
    webhook_url: kind === 'agent' ? null : (body.webhook_url ?? null),
    invalid_urls: invalidUrls,
    error: null,
    answer: null,
  };
}

/** A monitor as `POST /web/monitors` creates it from the body (the server's defaults). */
function createdMonitor(request: SuccessRequest): Monitor {
  const body = request.body ?? {};
  const at = iso(request.now);
  const anySchedule = MONITOR_SCHEDULE_FIELDS.some((field) => body[field] !== undefined);
  return {
    id: `mon_${ulid(request.now)}`,
    url: body.url,
    name: body.name ?? body.url,
    mode: body.mode ?? 'scrape',
    cadence_minutes: anySchedule ? (body.cadence_minutes ?? null) : 60,
    schedule_text: body.schedule_text ?? null,
    schedule_cron: body.schedule_cron ?? null,
    timezone: body.timezone ?? 'UTC',
    webhook_url: body.webhook_url ?? null,
    query: body.query ?? null,
    goal: body.goal ?? null,
    retention_days: body.retention_days ?? 30,
    judge_enabled: body.judge_enabled ?? false,
    status: 'active',
    created_at: at,
    updated_at: at,
    next_check_at: at,
    last_check: null,
  };
}

/** The monitor of `data` with the body of a `PATCH` applied, as the server applies it. */
function updatedMonitor(monitor: Monitor, request: SuccessRequest): Monitor {
  const body = request.body ?? {};
  const at = iso(request.now);
  const next: Data = { ...monitor, id: request.params.monitor_id, updated_at: at };
  for (const field of MONITOR_UPDATABLE_FIELDS) if (body[field] !== undefined) next[field] = body[field];
  const newSchedule = MONITOR_SCHEDULE_FIELDS.find((field) => body[field] !== undefined);
  if (newSchedule) for (const field of MONITOR_SCHEDULE_FIELDS) next[field] = field === newSchedule ? body[field] : null;
  if (body.status !== undefined) next.status = body.status;
  if (next.status === 'paused') next.next_check_at = null;
  else if (newSchedule !== undefined || body.timezone !== undefined || body.status === 'active') next.next_check_at = at;
  if (next.created_at > at) next.created_at = at;
  return next as Monitor;
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
    for (const field of ['start_time', 'end_time']) if (event[field]) event[field] = iso(Date.parse(event[field]) + weeks * WEEK_MS);
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
  createMonitor: (_data, request) => ({ monitor: createdMonitor(request) }),
  listMonitors: (data, request) => cut(data, 'monitors', limitOf(request, 20)),
  getMonitor: (data, request) => {
    data.monitor.id = request.params.monitor_id;
  },
  updateMonitor: (data, request) => ({ monitor: updatedMonitor(data.monitor, request) }),
  deleteMonitor: (data, request) => {
    data.monitor.id = request.params.monitor_id;
  },
};

/** `data` (an example's or generated) made to agree with the request; a new object, `data` is left alone. */
export function conformData(data: Data, request: SuccessRequest): Data {
  const copy = structuredClone(data);
  return CONFORM[request.operationId](copy, request) ?? copy;
}
