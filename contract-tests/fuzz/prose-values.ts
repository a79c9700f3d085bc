/**
 * What the contract states in prose beyond its schemas, for the valid generator: values a
 * description restricts (a JSON Schema as text, a cron expression that parses, an IANA time zone,
 * regular expressions that compile, URLs of public hosts) and the rules across a monitor's fields.
 * The rules across query parameters are lib/cross-parameter-rules.ts's, applied by the generator.
 */
import fc from 'fast-check';
import { codePointLength, freeText, publicUrl, type ProseValues } from './schema-arbitrary.ts';

const jsonSchemaText: fc.Arbitrary<string> = fc.dictionary(
  fc.stringMatching(/^[a-z][a-z_]{0,11}$/),
  fc.record({ type: fc.constantFrom('string', 'number', 'integer', 'boolean'), description: freeText(1, 40) }, { requiredKeys: ['type'] }),
  { maxKeys: 4 },
).map((properties) => JSON.stringify({ type: 'object', properties }));

const cronField = (min: number, max: number): fc.Arbitrary<string> => fc.oneof(
  fc.constant('*'),
  fc.integer({ min, max }).map(String),
  fc.integer({ min: 1, max: Math.min(max, 12) }).map((step) => `*/${step}`),
  fc.tuple(fc.integer({ min, max }), fc.integer({ min, max })).map(([a, b]) => `${Math.min(a, b)}-${Math.max(a, b)}`),
);

/** The contract's cron grammar: minute, hour, day of month (1 to 28, so every month has it), month, day of week. */
const cronExpression: fc.Arbitrary<string> = fc.tuple(cronField(0, 59), cronField(0, 23), cronField(1, 28), cronField(1, 12), cronField(0, 7)).map((fields) => fields.join(' '));

const clock = fc.tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 })).map(([hour, minute]) => ` at ${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`);

/** The schedule grammar's forms, with intervals between 5 minutes and 7 days as its table says. */
const scheduleText: fc.Arbitrary<string> = fc.oneof(
  fc.integer({ min: 5, max: 10080 }).map((minutes) => `every ${minutes} minutes`),
  fc.integer({ min: 1, max: 168 }).map((hours) => (hours === 1 ? 'every 1 hour' : `every ${hours} hours`)),
  fc.integer({ min: 1, max: 7 }).map((days) => (days === 1 ? 'every 1 day' : `every ${days} days`)),
  fc.constantFrom('hourly', 'daily'),
  fc.option(clock, { nil: '' }).map((at) => `daily${at}`),
  fc.tuple(fc.constantFrom('monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'), fc.option(clock, { nil: '' })).map(([day, at]) => `weekly on ${day}${at}`),
);

const TIMEZONE_PATTERN = /^(UTC|[A-Z][A-Za-z_]+(\/[A-Za-z0-9_+-]+){1,2})$/;
const timezones = ['UTC', ...Intl.supportedValuesOf('timeZone').filter((zone) => TIMEZONE_PATTERN.test(zone))];

const pathExpressions = fc.array(fc.constantFrom('^/blog', 'docs', '\\.html$', '/a/b', '[0-9]+', '^/$', '(en|de)/', '\\x2c'), { minLength: 1, maxLength: 3 }).map((patterns) => patterns.join(','));

/** Values for names whose description restricts them beyond their schema. */
export const proseValues: ProseValues = {
  // Waited for real by the sandbox, "as a browser would": up to 20 ms keeps a run within its time budget.
  wait_for: fc.integer({ min: 0, max: 20 }),
  schema: jsonSchemaText,
  schedule_cron: cronExpression,
  schedule_text: scheduleText,
  timezone: fc.constantFrom(...timezones),
  include_paths: pathExpressions,
  exclude_paths: pathExpressions,
  urls: fc.array(publicUrl.filter((url) => codePointLength(url) <= 2048), { minLength: 1, maxLength: 4 }),
};

const SCHEDULE_FIELDS = ['cadence_minutes', 'schedule_text', 'schedule_cron'] as const;

/**
 * A monitor's body made to follow the rules its description states: at most one schedule field;
 * `query` with mode `search` only (here: a body with `query` is a search monitor's, unless it is an
 * update of a monitor of another mode); `judge_enabled: true` with a goal.
 */
export function followMonitorRules(body: Record<string, unknown>, kind: 'create' | 'update'): Record<string, unknown> {
  const shaped = { ...body };
  const schedule = SCHEDULE_FIELDS.find((field) => shaped[field] !== undefined);
  for (const field of SCHEDULE_FIELDS) if (field !== schedule) delete shaped[field];
  if (kind === 'create') {
    if (shaped.query !== undefined) shaped.mode = 'search';
    else if (shaped.mode === 'search') shaped.mode = 'scrape';
  }
  if (shaped.judge_enabled === true && shaped.goal === undefined) shaped.judge_enabled = false;
  return shaped;
}
