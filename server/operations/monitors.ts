/** Monitors as records: create, list, get, update (status and schedule), delete; checks run on the scheduler (server/monitors/). */
import type { OperationId } from '../../generated/operations.ts';
import { MONITOR_SCHEDULE_FIELDS, newMonitor, updatedMonitor } from '../../lib/records.ts';
import { ServiceError } from '../gateway/service-error.ts';
import { capabilityUnavailable, invalidParameters } from '../../lib/error-messages.ts';
import { decodeCursor } from '../store/cursor.ts';
import type { Monitor } from '../store/monitors.ts';
import { checkCron } from '../monitors/schedule.ts';
import { checkTarget } from './targets.ts';
import type { OperationContext, OperationHandler } from './types.ts';

const MIN_INTERVAL_MINUTES = 5;
const MAX_INTERVAL_MINUTES = 7 * 24 * 60;
const UNIT_MINUTES: Record<string, number> = { minute: 1, hour: 60, day: 24 * 60 };

function invalid(problem: string): ServiceError {
  return new ServiceError('invalid_parameters', invalidParameters([problem]));
}

function checkScheduleFields(body: Record<string, unknown>): void {
  const given = MONITOR_SCHEDULE_FIELDS.filter((field) => body[field] !== undefined);
  if (given.length > 1) throw invalid(`give at most one of body.cadence_minutes, body.schedule_text and body.schedule_cron (got ${given.map((field) => `body.${field}`).join(', ')})`);
  const every = /^every (\d+) (minute|hour|day)s?$/.exec(String(body.schedule_text ?? ''));
  if (every) {
    const minutes = Number(every[1]) * UNIT_MINUTES[every[2]!]!;
    if (minutes < MIN_INTERVAL_MINUTES || minutes > MAX_INTERVAL_MINUTES) throw invalid(`body.schedule_text "${String(body.schedule_text)}" must be between 5 minutes and 7 days`);
  }
  if (body.timezone !== undefined) {
    try {
      new Intl.DateTimeFormat('en', { timeZone: String(body.timezone) });
    } catch {
      throw invalid(`body.timezone "${String(body.timezone)}" is not an IANA time zone`);
    }
  }
  if (body.schedule_cron !== undefined) {
    try {
      checkCron(String(body.schedule_cron), String(body.timezone ?? 'UTC'));
    } catch (error) {
      throw invalid(`body.schedule_cron "${String(body.schedule_cron)}" is not a cron expression: ${(error as Error).message}`);
    }
  }
}

/** Rules across the fields of a monitor as it would be saved. */
function checkMonitor(monitor: Pick<Monitor, 'mode' | 'query' | 'judge_enabled' | 'goal'>): void {
  if (monitor.mode === 'search' && !monitor.query) throw invalid('body.query is required with mode search');
  if (monitor.mode === 'scrape' && monitor.query) throw invalid('body.query is only accepted with mode search');
  if (monitor.judge_enabled && !monitor.goal) throw invalid('body.judge_enabled needs a body.goal');
}

/** A monitor needs a search provider (mode search) or a judge (`judge_enabled`): the registry says whether the key has one. */
function checkCapabilities(context: OperationContext, monitor: Pick<Monitor, 'mode' | 'judge_enabled'>): void {
  const { providers } = context.deps;
  if (monitor.mode === 'search' && !providers.providerFor(context.key, 'searchWeb')) throw new ServiceError('capability_unavailable', capabilityUnavailable('Monitors in mode search need a search provider, and none is configured'));
  if (monitor.judge_enabled && !providers.providerFor(context.key, 'extractWebData')?.judge) throw new ServiceError('capability_unavailable', capabilityUnavailable('judge_enabled needs a judge provider, and none is configured'));
}

/** The monitor's URL and webhook_url must be fetchable addresses. */
function checkTargets(context: OperationContext): void {
  for (const parameter of ['url', 'webhook_url'] as const) {
    const value = context.body?.[parameter];
    if (typeof value === 'string') checkTarget(context, value, `body.${parameter}`);
  }
}

async function ownedMonitor(context: OperationContext): Promise<Monitor> {
  const monitor = await context.deps.stores.monitors.get(context.key.id, context.params.monitor_id!);
  if (!monitor) throw new ServiceError('resource_not_found', `No monitor ${context.params.monitor_id} for this API key.`);
  return monitor;
}

export const monitorHandlers: Partial<Record<OperationId, OperationHandler>> = {
  createMonitor: {
    check(context) {
      checkScheduleFields(context.body!);
      checkTargets(context);
      const draft = { mode: context.body!.mode ?? 'scrape', query: context.body!.query ?? null, judge_enabled: context.body!.judge_enabled ?? false, goal: context.body!.goal ?? null };
      checkMonitor(draft);
      checkCapabilities(context, draft);
    },
    async run(context) {
      const monitor = newMonitor(context.body!, context.deps.clock.now());
      await context.deps.stores.monitors.insert(context.key.id, monitor);
      return { monitor };
    },
  },

  listMonitors: {
    async run(context) {
      const cursor = context.query.cursor as string | undefined;
      const after = cursor === undefined ? undefined : decodeCursor(cursor, 'monitors', context.key.id);
      if (cursor !== undefined && after === undefined) throw invalid('query.cursor was not issued for this list');
      const { monitors, nextCursor } = await context.deps.stores.monitors.list(context.key.id, Number(context.query.limit ?? 20), after);
      return { monitors, next_cursor: nextCursor };
    },
  },

  getMonitor: {
    run: async (context) => ({ monitor: await ownedMonitor(context) }),
  },

  updateMonitor: {
    async check(context) {
      checkScheduleFields(context.body ?? {});
      checkTargets(context);
      const next = updatedMonitor(await ownedMonitor(context), context.body ?? {}, context.deps.clock.now());
      checkMonitor(next);
      checkCapabilities(context, next);
    },
    async run(context) {
      const monitor = updatedMonitor(await ownedMonitor(context), context.body ?? {}, context.deps.clock.now());
      await context.deps.stores.monitors.save(monitor);
      return { monitor };
    },
  },

  deleteMonitor: {
    async run(context) {
      const monitor = await ownedMonitor(context);
      await context.deps.stores.monitors.remove(monitor.id);
      return { monitor, deleted: true };
    },
  },
};
