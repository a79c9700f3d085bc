/**
 * When a monitor checks next: every `cadence_minutes`; `schedule_text` (a small grammar) as an
 * interval or a cron expression; `schedule_cron` in the monitor's `timezone`. Firing times less
 * than 5 minutes after the previous check are skipped.
 */
import { CronExpressionParser } from 'cron-parser';
import type { Monitor } from '../store/monitors.ts';

const MINUTE_MS = 60_000;
const MIN_GAP_MS = 5 * MINUTE_MS;
const UNIT_MS: Record<string, number> = { minute: MINUTE_MS, hour: 60 * MINUTE_MS, day: 24 * 60 * MINUTE_MS };
const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

/** `schedule_text` as an interval in ms or a cron expression. */
export function parseScheduleText(text: string): { intervalMs: number } | { cron: string } {
  const every = /^every (\d+) (minute|hour|day)s?$/.exec(text);
  if (every) return { intervalMs: Number(every[1]) * UNIT_MS[every[2]!]! };
  if (text === 'hourly') return { cron: '0 * * * *' };
  const daily = /^daily(?: at (\d{2}):(\d{2}))?$/.exec(text);
  if (daily) return { cron: `${Number(daily[2] ?? 0)} ${Number(daily[1] ?? 0)} * * *` };
  const weekly = /^weekly on (\w+)(?: at (\d{2}):(\d{2}))?$/.exec(text);
  if (weekly) return { cron: `${Number(weekly[3] ?? 0)} ${Number(weekly[2] ?? 0)} * * ${WEEKDAYS.indexOf(weekly[1]!)}` };
  throw new Error(`schedule_text "${text}" is not in the grammar`);
}

/** Throws when a cron expression does not parse (the pattern only checks its five fields). */
export function checkCron(expression: string, timezone: string): void {
  CronExpressionParser.parse(expression, { tz: timezone });
}

function nextCron(expression: string, timezone: string, afterMs: number): number {
  const cron = CronExpressionParser.parse(expression, { tz: timezone, currentDate: new Date(afterMs) });
  let next = cron.next().getTime();
  while (next - afterMs < MIN_GAP_MS) next = cron.next().getTime();
  return next;
}

/** The time of the check after one made at `lastCheckMs`. */
export function nextCheckAt(monitor: Monitor, lastCheckMs: number): number {
  if (monitor.schedule_cron) return nextCron(monitor.schedule_cron, monitor.timezone, lastCheckMs);
  if (monitor.schedule_text) {
    const parsed = parseScheduleText(monitor.schedule_text);
    return 'intervalMs' in parsed ? lastCheckMs + parsed.intervalMs : nextCron(parsed.cron, monitor.timezone, lastCheckMs);
  }
  return lastCheckMs + (monitor.cadence_minutes ?? 60) * MINUTE_MS;
}
