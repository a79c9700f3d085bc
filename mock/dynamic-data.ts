/**
 * Believable dynamic answers (`Prefer: dynamic=true`): the json-schema-faker options Prism's
 * generator runs with, and the order a record's timestamps must keep, which no schema can say.
 */
import { createRequire } from 'node:module';

interface JsonSchemaFaker {
  option(options: object): void;
  format(name: string, generate: (schema: object) => string): void;
  random: { pick<T>(items: readonly T[]): T; number(min: number, max: number): number };
}

/**
 * Dynamic answers hold at most this many items per array: the contract allows up to 5000 links in
 * a map, and a frontend needs a handful, fast.
 */
const DYNAMIC_MAX_ITEMS = 5;
const TWO_YEARS_MS = 2 * 365 * 86_400_000;
const HOSTS = ['example.com', 'docs.example.com', 'blog.example.org', 'shop.example.net', 'news.example.com'];
const PATH_WORDS = ['pricing', 'blog', 'docs', 'guide', 'launch', 'about', 'careers', 'changelog', 'api', 'install'];

/**
 * Sets the options on the json-schema-faker instance Prism uses (its CommonJS build, not the ES
 * module one): a schema's `examples` are the values to draw from, dates fall in the last two years
 * (json-schema-faker's default is 1889 to 1970), and a `uri` without examples is an https URL on a
 * real-looking host (its default pattern allows `+` and `,` in host names).
 */
export function configureDynamicData(): void {
  const { JSONSchemaFaker: faker } = createRequire(import.meta.url)('json-schema-faker') as { JSONSchemaFaker: JsonSchemaFaker };
  faker.option({ maxItems: DYNAMIC_MAX_ITEMS, useExamplesValue: true, minDateTime: -TWO_YEARS_MS, maxDateTime: 0 });
  faker.format('uri', () => {
    const words = Array.from({ length: faker.random.number(1, 3) }, () => faker.random.pick(PATH_WORDS));
    return `https://${faker.random.pick(HOSTS)}/${words.join('/')}`;
  });
}

type Data = Record<string, any>;

/** A record's timestamps in their lifecycle order: each is at or after the ones before it. */
const LIFECYCLE = ['created_at', 'started_at', 'completed_at', 'updated_at'] as const;

function isRecord(value: unknown): value is Data {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A job's fields made to agree with its kind and status (a queued job has not started, …). */
function consistentJob(job: Data): void {
  if (job.kind === 'batch_scrape') job.url = null;
  else job.invalid_urls = [];
  if (job.kind === 'agent') Object.assign(job, { pages_total: 0, webhook_url: null });
  if (job.status === 'queued') Object.assign(job, { started_at: null, pages_completed: 0, pages_failed: 0 });
  if (job.status === 'queued' || job.status === 'running') job.completed_at = null;
  else job.completed_at ??= job.updated_at;
  if (job.status !== 'queued') job.started_at ??= job.created_at;
  if (job.status !== 'failed') job.error = null;
  if (job.status !== 'completed' || job.kind !== 'agent') job.answer = null;
}

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

function seconds(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** `{"0": a, "1": b}`: how Prism's generator returns an array drawn from `examples` inside a list item. */
function isIndexedObject(value: unknown): value is Data {
  return isRecord(value) && Object.keys(value).length > 0 && Object.keys(value).every((key, index) => key === String(index));
}

/** Items drawn from the same `examples` share their `id`: each gets its own, as a list's items do. */
function distinctIds(items: unknown[]): void {
  const seen = new Set<string>();
  items.forEach((item, index) => {
    if (!isRecord(item) || typeof item.id !== 'string') return;
    if (seen.has(item.id)) item.id = item.id.slice(0, -2) + String(index % 100).padStart(2, '0');
    seen.add(item.id);
  });
}

/**
 * Makes generated `data` believable where a schema cannot: arrays stay arrays, a list's items have
 * distinct ids, date-times are whole seconds, every record's lifecycle timestamps are in order
 * (created ≤ started ≤ completed ≤ updated ≤ `now`), every job agrees with its status and every
 * job page has exactly one of `document` and `error`. Changes `data`.
 */
export function makeBelievable(data: unknown, now: number): void {
  if (Array.isArray(data)) {
    distinctIds(data);
    for (const item of data) makeBelievable(item, now);
    return;
  }
  if (!isRecord(data)) return;
  for (const [key, value] of Object.entries(data)) {
    if (isIndexedObject(value)) data[key] = Object.values(value);
    else if (typeof value === 'string' && DATE_TIME.test(value)) data[key] = seconds(Date.parse(value));
  }
  if (typeof data.id === 'string' && data.id.startsWith('job_') && 'kind' in data) consistentJob(data);
  if ('document' in data && 'error' in data && data.document !== null) data.error = null;
  const present = LIFECYCLE.filter((field) => typeof data[field] === 'string');
  const sorted = present.map((field) => Math.min(Date.parse(data[field]), now)).sort((a, b) => a - b);
  present.forEach((field, index) => (data[field] = seconds(sorted[index]!)));
  for (const value of Object.values(data)) makeBelievable(value, now);
}
