/**
 * Runs monitor checks when they are due, on the providers the registry gives for the monitor's
 * key: fetches the page from the page source routed for `scrapeWebPage` (mode scrape) or runs the
 * search routed for `searchWeb` (mode search), asks the judge routed for `extractWebData` whether
 * a change meets the goal (`judge_enabled`), compares its Markdown with the last successful check, stores the check
 * with a readable unified diff, prunes checks past `retention_days`, schedules the next one, and
 * queues `monitor.changed` or `monitor.check_failed` for the webhook, all in one transaction.
 */
import { repeat } from '../repeat.ts';
import { createTwoFilesPatch } from 'diff';
import { ulid } from '../../lib/request-id.ts';
import type { Clock } from '../clock.ts';
import { timestamp } from '../../lib/timestamp.ts';
import type { KeyKind, ProviderRegistry } from '../providers/registry.ts';
import { ProviderError, type DataProvider } from '../providers/types.ts';
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

function unavailable(what: string): ProviderError {
  return new ProviderError('provider_unavailable', `${what}, and none is configured.`);
}

export class MonitorScheduler {
  private readonly stores: Stores;
  private readonly clock: Clock;
  private readonly providers: ProviderRegistry;
  private readonly metrics: UpstreamErrorObserver | undefined;
  private readonly running = new Set<string>();
  private stopRepeating: (() => void) | undefined;

  /** `metrics` counts the checks an upstream failed, under the provider's name. */
  constructor(stores: Stores, clock: Clock, providers: ProviderRegistry, metrics?: UpstreamErrorObserver) {
    this.stores = stores;
    this.clock = clock;
    this.providers = providers;
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

  /** The provider that serves the monitor's checks: the one routed for its mode's operation. */
  private providerOf(key: KeyKind, monitor: Monitor): DataProvider | undefined {
    return this.providers.providerFor(key, monitor.mode === 'search' ? 'searchWeb' : 'scrapeWebPage');
  }

  private async observe(provider: DataProvider | undefined, monitor: Monitor): Promise<Observation> {
    if (monitor.mode === 'search') {
      if (!provider) throw unavailable('Monitors in mode search need a search provider');
      const results = await provider.fetch({ operationId: 'searchWeb', query: { query: monitor.query, limit: 10 }, signal: new AbortController().signal }) as { results: { title: string; url: string }[] };
      return { content: results.results.map((result) => `- [${result.title}](${result.url})`).join('\n'), statusCode: null };
    }
    if (!provider?.pages) throw unavailable('Monitors need a provider of pages');
    const page = await provider.pages.page(monitor.url, { formats: ['markdown'], onlyMainContent: true });
    return { content: page.document.markdown ?? '', statusCode: page.statusCode };
  }

  /** The judge's verdict on a change, for a monitor with `judge_enabled` (the judge routed for `extractWebData`). */
  private async judgement(key: KeyKind, monitor: Monitor, previous: string, current: string): Promise<MonitorCheck['judgement']> {
    const judge = this.providers.providerFor(key, 'extractWebData')?.judge;
    if (!judge) throw unavailable('judge_enabled needs a judge provider');
    return judge.judge({ goal: String(monitor.goal), previous, current });
  }

  private async check(keyId: string, monitor: Monitor): Promise<void> {
    const key = { sandbox: this.stores.keys.get(keyId)?.sandbox ?? false };
    const provider = this.providerOf(key, monitor);
    let observation: Observation | undefined;
    let judgement: MonitorCheck['judgement'] = null;
    let error: ProviderError | undefined;
    try {
      observation = await this.observe(provider, monitor);
      const previous = this.stores.monitors.lastContent(monitor.id);
      if (monitor.judge_enabled && previous !== undefined && previous !== observation.content) judgement = await this.judgement(key, monitor, previous, observation.content);
    } catch (failure) {
      error = failure instanceof ProviderError ? failure : new ProviderError('upstream_failed', (failure as Error).message);
      this.metrics?.upstreamFailed(provider?.name ?? 'none', error.code);
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
        judgement: outcome === 'changed' && current.judge_enabled ? judgement : null,
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
