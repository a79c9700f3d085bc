/**
 * The records a request creates or changes, built the same way by the server and by the mock: a
 * job as its submission queues it, a monitor as its creation sets it up, and a monitor as an
 * update's body changes it.
 */
import type { components } from '../generated/types.ts';
import { ulid } from './request-id.ts';
import { timestamp } from './timestamp.ts';

type Job = components['schemas']['Job'];
type Monitor = components['schemas']['Monitor'];
type Body = Record<string, any>;

/** At most one of these is given in a request, and exactly one is set on a monitor. */
export const MONITOR_SCHEDULE_FIELDS = ['cadence_minutes', 'schedule_text', 'schedule_cron'] as const;
/** What an update may change besides the schedule and the status. */
const MONITOR_SETTINGS = ['name', 'webhook_url', 'query', 'goal', 'retention_days', 'judge_enabled', 'timezone'] as const;
/** A monitor created without a schedule is checked every 60 minutes. */
const DEFAULT_CADENCE_MINUTES = 60;

/** The job a submission queues at `nowMs`, drawing `creditCost`: `fields` (its kind's) over the common ones. */
export function queuedJob(kind: Job['kind'], nowMs: number, creditCost: number, body: Body, fields: Partial<Job>): Job {
  return {
    id: `job_${ulid(nowMs)}`,
    kind,
    status: 'queued',
    url: null,
    created_at: timestamp(nowMs),
    updated_at: timestamp(nowMs),
    started_at: null,
    completed_at: null,
    pages_total: null,
    pages_completed: 0,
    pages_failed: 0,
    credits_used: creditCost,
    webhook_url: body.webhook_url ?? null,
    invalid_urls: [],
    error: null,
    answer: null,
    ...fields,
  };
}

/** The monitor `POST /web/monitors` creates from `body` at `nowMs`, due at once. */
export function newMonitor(body: Body, nowMs: number): Monitor {
  const now = timestamp(nowMs);
  const anySchedule = MONITOR_SCHEDULE_FIELDS.some((field) => body[field] !== undefined);
  return {
    id: `mon_${ulid(nowMs)}`,
    url: body.url,
    name: body.name ?? body.url,
    mode: body.mode ?? 'scrape',
    cadence_minutes: anySchedule ? (body.cadence_minutes ?? null) : DEFAULT_CADENCE_MINUTES,
    schedule_text: body.schedule_text ?? null,
    schedule_cron: body.schedule_cron ?? null,
    timezone: body.timezone ?? 'UTC',
    webhook_url: body.webhook_url ?? null,
    query: body.query ?? null,
    goal: body.goal ?? null,
    retention_days: body.retention_days ?? 30,
    judge_enabled: body.judge_enabled ?? false,
    status: 'active',
    created_at: now,
    updated_at: now,
    next_check_at: now,
    last_check: null,
  };
}

/**
 * `monitor` with an update's `body` applied at `nowMs`: a new schedule replaces the old one, a
 * paused monitor has no next check, and one rescheduled or resumed is due at once.
 */
export function updatedMonitor(monitor: Monitor, body: Body, nowMs: number): Monitor {
  const now = timestamp(nowMs);
  const next: Record<string, unknown> = { ...monitor, updated_at: now };
  for (const field of MONITOR_SETTINGS) if (body[field] !== undefined) next[field] = body[field];
  const newSchedule = MONITOR_SCHEDULE_FIELDS.find((field) => body[field] !== undefined);
  if (newSchedule) for (const field of MONITOR_SCHEDULE_FIELDS) next[field] = field === newSchedule ? body[field] : null;
  if (body.status !== undefined) next.status = body.status;
  const rescheduled = newSchedule !== undefined || body.timezone !== undefined || (body.status === 'active' && monitor.status === 'paused');
  if (next.status === 'paused') next.next_check_at = null;
  else if (rescheduled) next.next_check_at = now;
  return next as Monitor;
}
