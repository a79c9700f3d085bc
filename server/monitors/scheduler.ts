/**
 * Runs monitor checks when they are due: fetches the page (mode scrape) or runs the search (mode
 * search, sandbox keys), compares its Markdown with the last successful check, stores the check
 * with a readable unified diff, prunes checks past `retention_days`, schedules the next one, and
 * queues `monitor.changed` or `monitor.check_failed` for the webhook, all in one transaction.
 */
import { repeat } from '../repeat.ts';
import { createTwoFilesPatch } from 'diff';
import { ulid } from '../../lib/request-id.ts';
import type { Clock } from '../clock.ts';
import { timestamp } from '../../lib/timestamp.ts';
import { failOnMagicUrl } from '../providers/sandbox/magic-failures.ts';
import { sandboxSearch } from '../providers/sandbox/web.ts';
import { sandboxDocument } from '../providers/sandbox/web-jobs.ts';
import { ProviderError } from '../providers/types.ts';
import { fetchPage, statusFailure, type FetchContext } from '../outbound/fetch-page.ts';
import { conversionPool } from '../providers/web/conversion-pool.ts';
import { inTransaction } from '../store/database.ts';
import type { Stores } from '../store/index.ts';
import type { Monitor, MonitorCheck } from '../store/monitors.ts';
import type { UpstreamErrorObserver } from '../operator/metrics.ts';
import { nextCheckAt } from './schedule.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

interface Observation {
  content: string;
  statusCode: number | null;
}

export class MonitorScheduler {
  private readonly stores: Stores;
  private readonly clock: Clock;
  private readonly fetchContext: FetchContext;
  private readonly metrics: UpstreamErrorObserver | undefined;
  private readonly running = new Set<string>();
  private stopRepeating: (() => void) | undefined;

  /** `metrics` counts the checks the page failed (provider `web`, or `sandbox` for sandbox keys). */
  constructor(stores: Stores, clock: Clock, fetchContext: FetchContext, metrics?: UpstreamErrorObserver) {
    this.stores = stores;
    this.clock = clock;
    this.fetchContext = fetchContext;
    this.metrics = metrics;
  }

  start(tickMs: number): void {
    this.stopRepeating = repeat(tickMs, () => this.tick());
  }

  stop(): void {
    this.stopRepeating?.();
  }

  /** Checks every due monitor once; resolves when those checks are stored. */
  async tick(): Promise<void> {
    const due = this.stores.monitors.due(this.clock.now()).filter(({ monitor }) => !this.running.has(monitor.id));
    await Promise.all(due.map(async ({ keyId, monitor }) => {
      this.running.add(monitor.id);
      try {
        await this.check(keyId, monitor);
      } finally {
        this.running.delete(monitor.id);
      }
    }));
  }

  private async observe(keyId: string, monitor: Monitor): Promise<Observation> {
    const sandbox = this.stores.keys.get(keyId)?.sandbox ?? false;
    if (monitor.mode === 'search') {
      const results = sandboxSearch({ query: monitor.query, limit: 10 }) as { results: { title: string; url: string }[] };
      return { content: results.results.map((result) => `- [${result.title}](${result.url})`).join('\n'), statusCode: null };
    }
    if (sandbox) {
      failOnMagicUrl(monitor.url);
      return { content: sandboxDocument(monitor.url, ['markdown'], { onlyMainContent: true }).markdown ?? '', statusCode: 200 };
    }
    const page = await fetchPage(monitor.url, this.fetchContext);
    const failure = statusFailure(page);
    if (failure) throw failure;
    const document = await conversionPool.html(page, { formats: ['markdown'], onlyMainContent: true, removeBase64Images: true, blockAds: true });
    return { content: document.markdown ?? '', statusCode: page.status };
  }

  private async check(keyId: string, monitor: Monitor): Promise<void> {
    let observation: Observation | undefined;
    let error: ProviderError | undefined;
    try {
      observation = await this.observe(keyId, monitor);
    } catch (failure) {
      error = failure instanceof ProviderError ? failure : new ProviderError('upstream_failed', (failure as Error).message);
      this.metrics?.upstreamFailed(this.stores.keys.get(keyId)?.sandbox ? 'sandbox' : 'web', error.code);
    }
    const nowMs = this.clock.now();
    inTransaction(this.stores.database, () => {
      const current = this.stores.monitors.get(keyId, monitor.id);
      if (!current || current.status !== 'active') return;
      const previous = this.stores.monitors.lastContent(monitor.id);
      const outcome: MonitorCheck['outcome'] = error ? 'failed' : previous === undefined ? 'baseline' : previous === observation!.content ? 'unchanged' : 'changed';
      const check: MonitorCheck = {
        id: `chk_${ulid(nowMs)}`,
        checked_at: timestamp(nowMs),
        outcome,
        status_code: observation?.statusCode ?? null,
        diff: outcome === 'changed' ? createTwoFilesPatch('previous', 'current', `${previous}\n`, `${observation!.content}\n`, '', '', { context: 3 }).replace(/^=+\n/, '') : null,
        judgement: outcome === 'changed' && current.judge_enabled ? { meets_goal: true, reason: `The page changed; the sandbox judge counts every change as meeting the goal "${current.goal}".` } : null,
        error: error ? { code: error.code, message: error.message } : null,
      };
      this.stores.monitors.addCheck(monitor.id, check, nowMs, observation?.content ?? null);
      this.stores.monitors.pruneChecks(monitor.id, nowMs - current.retention_days * DAY_MS);
      const updated: Monitor = { ...current, last_check: check, next_check_at: timestamp(nextCheckAt(current, nowMs)), updated_at: current.updated_at };
      this.stores.monitors.save(updated);
      if (current.webhook_url && (outcome === 'changed' || outcome === 'failed')) {
        const type = outcome === 'changed' ? 'monitor.changed' : 'monitor.check_failed';
        this.stores.webhooks.enqueue(keyId, current.webhook_url, type, { type, timestamp: timestamp(nowMs), data: { monitor: updated, check } }, nowMs);
      }
    });
  }
}
