/**
 * Runs monitor checks when they are due, on the providers the registry gives for the monitor's
 * key: reads the page from the page source routed for `scrapeWebPage` (mode scrape) or runs the
 * search routed for `searchWeb` (mode search) (observe.ts), compares it with the last successful
 * check, stores the check with a readable unified diff, asks the judge routed for `extractWebData`
 * whether a change meets the goal (`judge_enabled`: the verdict is the check's `judgement`; a judge
 * that fails leaves the check `changed` with `judgement` null and its failure in `error`), prunes
 * checks past `retention_days`, schedules the next one, and queues `monitor.changed` (with the
 * judge: unless it found that the change does not meet the goal) or `monitor.check_failed` for the
 * webhook, all in one transaction. A check is made by the one instance holding the monitor's lease
 * (`held-lease.ts`): claimed when due, renewed while the check runs, verified first in the
 * transaction that stores the check, released after it.
 */
import { defaultLeaseTerms, HeldLease, leasedStores, LeaseLost, type LeaseTerms } from '../held-lease.ts';
import { repeat } from '../repeat.ts';
import { createTwoFilesPatch } from 'diff';
import { ulid } from '../../lib/request-id.ts';
import { monitorJudgeFailed, monitorProviderMissing } from '../../lib/error-messages.ts';
import type { Clock } from '../clock.ts';
import { timestamp } from '../../lib/timestamp.ts';
import type { KeyKind, ProviderRegistry } from '../providers/registry.ts';
import { ProviderError, type DataProvider } from '../providers/types.ts';
import type { Stores } from '../store/index.ts';
import type { Monitor, MonitorCheck } from '../store/monitors.ts';
import type { UpstreamErrorObserver } from '../operator/metrics.ts';
import { observe, type Observation } from './observe.ts';
import { nextCheckAt } from './schedule.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Monitors claimed per tick at most (the rest wait for the next tick, or another instance). */
const CLAIMS_PER_TICK = 32;

/** The judge's verdict on a change, or why there is none. */
interface Verdict {
  judgement: MonitorCheck['judgement'];
  error: MonitorCheck['error'];
}

function asProviderError(failure: unknown): ProviderError {
  return failure instanceof ProviderError ? failure : new ProviderError('upstream_failed', (failure as Error).message);
}

/** The check's `diff`: the previous successful check's Markdown against this one's, 3 lines of context. */
function unifiedDiff(previous: string, current: string): string {
  return createTwoFilesPatch('previous', 'current', `${previous}\n`, `${current}\n`, '', '', { context: 3 }).replace(/^=+\n/, '');
}

export class MonitorScheduler {
  private readonly stores: Stores;
  private readonly clock: Clock;
  private readonly providers: ProviderRegistry;
  private readonly metrics: UpstreamErrorObserver | undefined;
  private readonly terms: LeaseTerms;
  /** The checks under way here, by monitor, with their leases. */
  private readonly running = new Map<string, HeldLease>();
  private stopping = false;
  private stopRepeating: (() => void) | undefined;

  /** `metrics` counts the checks an upstream failed, under the provider's name; `terms` are this instance's leases on checks. */
  constructor(stores: Stores, clock: Clock, providers: ProviderRegistry, metrics?: UpstreamErrorObserver, terms: LeaseTerms = defaultLeaseTerms()) {
    this.stores = stores;
    this.clock = clock;
    this.providers = providers;
    this.metrics = metrics;
    this.terms = terms;
  }

  start(tickMs: number): void {
    this.stopRepeating = repeat(tickMs, () => this.tick());
  }

  /** Stops checking, and releases the leases of the checks under way (their results are not stored: another instance checks again at once). */
  async stop(): Promise<void> {
    this.stopping = true;
    this.stopRepeating?.();
    await Promise.all([...this.running.values()].map((lease) => lease.release()));
  }

  /** Claims every due monitor no instance is checking and checks each once; resolves when those checks are stored. */
  async tick(): Promise<void> {
    if (this.stopping) return;
    const due = await this.stores.monitors.claimDue(this.terms.owner, this.clock.now(), this.terms.leaseMs, CLAIMS_PER_TICK);
    await Promise.all(due.map(async ({ keyId, monitor }) => {
      const lease = new HeldLease(this.stores.monitors.leases, monitor.id, this.terms, this.clock);
      this.running.set(monitor.id, lease);
      try {
        await this.check(keyId, monitor, lease);
      } catch (error) {
        if (!(error instanceof LeaseLost)) throw error;
      } finally {
        this.running.delete(monitor.id);
        await lease.release();
      }
    }));
  }

  /** The provider that serves the monitor's checks: the one routed for its mode's operation. */
  private providerOf(key: KeyKind, monitor: Monitor): DataProvider | undefined {
    return this.providers.providerFor(key, monitor.mode === 'search' ? 'searchWeb' : 'scrapeWebPage');
  }

  /** The verdict of the judge routed for `extractWebData` on a change of a monitor with `judge_enabled`; its failure is noted, not thrown. */
  private async verdict(key: KeyKind, monitor: Monitor, diff: string, signal: AbortSignal): Promise<Verdict> {
    const provider = this.providers.providerFor(key, 'extractWebData');
    try {
      if (!provider?.judge) throw new ProviderError('provider_unavailable', monitorProviderMissing('judge_enabled needs a judge provider'));
      const { meets_goal, reason } = await provider.judge.judge({ goal: String(monitor.goal), diff, url: monitor.url, signal });
      return { judgement: { meets_goal, reason }, error: null };
    } catch (failure) {
      const error = asProviderError(failure);
      this.metrics?.upstreamFailed(provider?.name ?? 'none', error.code);
      return { judgement: null, error: { code: error.code, message: monitorJudgeFailed(error.message) } };
    }
  }

  /** One check of `monitor`, stored under `lease` (`LeaseLost` when another instance holds it by then). */
  private async check(keyId: string, monitor: Monitor, lease: HeldLease): Promise<void> {
    const key = { sandbox: (await this.stores.keys.get(keyId))?.sandbox ?? false };
    const provider = this.providerOf(key, monitor);
    // Never aborted: every upstream call is bounded in time by its client.
    const signal = new AbortController().signal;
    // Only the holder of the lease checks this monitor, so the last content stays as read here.
    const previous = await this.stores.monitors.lastContent(monitor.id);
    let observation: Observation | undefined;
    let failure: ProviderError | undefined;
    try {
      observation = await observe(provider, monitor, signal);
    } catch (caught) {
      failure = asProviderError(caught);
      this.metrics?.upstreamFailed(provider?.name ?? 'none', failure.code);
    }
    const outcome: MonitorCheck['outcome'] = !observation ? 'failed' : previous === undefined ? 'baseline' : previous === observation.content ? 'unchanged' : 'changed';
    const diff = outcome === 'changed' ? unifiedDiff(previous!, observation!.content) : null;
    const verdict = diff !== null && monitor.judge_enabled ? await this.verdict(key, monitor, diff, signal) : undefined;
    const nowMs = this.clock.now();
    await leasedStores(this.stores, lease).database.transaction(async () => {
      const current = await this.stores.monitors.get(keyId, monitor.id);
      if (!current || current.status !== 'active') return;
      const check: MonitorCheck = {
        id: `chk_${ulid(nowMs)}`,
        checked_at: timestamp(nowMs),
        outcome,
        status_code: observation?.statusCode ?? null,
        diff,
        judgement: current.judge_enabled ? verdict?.judgement ?? null : null,
        error: failure ? { code: failure.code, message: failure.message } : current.judge_enabled ? verdict?.error ?? null : null,
      };
      await this.stores.monitors.addCheck(monitor.id, check, nowMs, observation?.content ?? null);
      await this.stores.monitors.pruneChecks(monitor.id, nowMs - current.retention_days * DAY_MS);
      const updated: Monitor = { ...current, last_check: check, next_check_at: timestamp(nextCheckAt(current, nowMs)), updated_at: current.updated_at };
      await this.stores.monitors.save(updated);
      const type = outcome === 'failed' ? 'monitor.check_failed' : outcome === 'changed' && check.judgement?.meets_goal !== false ? 'monitor.changed' : undefined;
      if (current.webhook_url && type) {
        await this.stores.webhooks.enqueue(keyId, monitor.id, current.webhook_url, type, { type, timestamp: timestamp(nowMs), data: { monitor: updated, check } }, nowMs);
      }
    });
  }
}
