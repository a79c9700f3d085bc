/**
 * Runs crawl, batch-scrape and agent jobs, sandbox and live alike, on the provider the registry
 * gives for the job's key. A crawl or batch scrape takes its pages from that provider's page
 * source: each step takes up to `pagesPerStep` pages of the job's frontier and fetches them
 * `fetchesAtOnce` at a time, then stores them, charges them and saves the new frontier in one
 * transaction, so a job interrupted by a restart resumes from its last saved step, with no page
 * charged twice and none lost. A source that runs `oneStepPerTick` (the sandbox) advances each job
 * by one step per tick; the others run a job's steps back to back. A job cancelled mid-step starts
 * no further fetch, and the step's pages are neither stored nor charged. A job is run by the one
 * instance holding its lease (`held-lease.ts`): claimed when free or expired, renewed while it
 * runs, verified first in every transaction that writes the job (so an instance that lost it
 * writes nothing), released when the job ends or the runner stops. Which links a crawl
 * follows is `crawl-policy.ts`; an agent job's steps are `agent-job.ts`; how a job ends is
 * `job-end.ts`.
 */
import { operations } from '../../generated/operations.ts';
import type { Clock } from '../clock.ts';
import { timestamp } from '../../lib/timestamp.ts';
import { AGENT_PAGES_OPERATION, JOB_OPERATION, type ProviderRegistry } from '../providers/registry.ts';
import { ProviderError, type DataProvider, type PageSource, type RobotsRules } from '../providers/types.ts';
import type { Stores } from '../store/index.ts';
import type { Job, JobPage, StoredJob } from '../store/jobs.ts';
import { defaultLeaseTerms, HeldLease, leasedStores, LeaseLost, type LeaseTerms } from '../held-lease.ts';
import { repeat } from '../repeat.ts';
import type { UpstreamErrorObserver } from '../operator/metrics.ts';
import { queueJobEvent, type JobEventName } from '../webhooks/job-events.ts';
import { agentJobStep } from './agent-job.ts';
import { crawlPolicy } from './crawl-policy.ts';
import { endJob, endedJob, firstPage } from './job-end.ts';

/** What a crawl or batch scrape has still to visit, saved with every step. */
interface Progress {
  frontier: { url: string; depth: number }[];
  seen: string[];
  /** A crawl's start may be refused by robots.txt: then the job fails with provider_policy_denied. */
  robotsChecked: boolean;
}

type Fetched = { url: string; depth: number; page: JobPage; links: string[] };

/** How often a running step checks that its job still runs (to abort a long upstream call of a cancelled job). */
const STILL_RUNNING_CHECK_MS = 100;

/** Jobs claimed per tick at most (the rest wait for the next tick, or another instance). */
const CLAIMS_PER_TICK = 16;

const PAGE_COST: Record<string, number> = Object.fromEntries(operations.map((row) => [row.operationId, row.creditCostPerPage]));

function isActive(stored: StoredJob): boolean {
  return stored.job.status === 'queued' || stored.job.status === 'running';
}

function initialProgress(stored: StoredJob): Progress {
  const { request, job } = stored;
  if (job.kind === 'batch_scrape') {
    const urls = [...new Set((request.urls as string[]).filter((url) => !job.invalid_urls.includes(url)))];
    return { frontier: urls.map((url) => ({ url, depth: 0 })), seen: urls, robotsChecked: true };
  }
  return { frontier: [{ url: String(request.url), depth: 0 }], seen: [String(request.url)], robotsChecked: false };
}

export class JobRunner {
  private readonly stores: Stores;
  private readonly clock: Clock;
  private readonly providers: ProviderRegistry;
  private readonly metrics: UpstreamErrorObserver | undefined;
  private readonly terms: LeaseTerms;
  /** The jobs this instance holds a lease on, with their owners. */
  private readonly held = new Map<string, { keyId: string; lease: HeldLease }>();
  private readonly working = new Set<string>();
  /** robots.txt per crawl, read once per run of the job rather than once per step. */
  private readonly robotsByJob = new Map<string, Promise<RobotsRules>>();
  private stopRepeating: (() => void) | undefined;
  private stopping = false;

  /** `metrics` counts the pages an upstream failed, under the provider's name; `terms` are this instance's leases on jobs. */
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

  /**
   * Stops taking and advancing jobs; resolves once the steps under way have ended (a step that
   * had not stored its pages stores nothing) and every lease is released, so another instance
   * takes the jobs over at once.
   */
  async stop(): Promise<void> {
    this.stopping = true;
    this.stopRepeating?.();
    while (this.working.size > 0) await new Promise((resolve) => setTimeout(resolve, 10));
    await Promise.all([...this.held.keys()].map((jobId) => this.release(jobId)));
  }

  /**
   * Claims the active jobs no instance holds (or whose holder's lease expired), then advances
   * every job this instance holds that has no worker: one step for a job whose source runs one step
   * per tick (resolves when those steps are done), and starts a worker that runs each other job to
   * its end in the background (not awaited: a long crawl must not hold back the next tick's jobs).
   */
  async tick(): Promise<void> {
    if (this.stopping) return;
    for (const stored of await this.stores.jobs.claimActive(this.terms.owner, this.clock.now(), this.terms.leaseMs, CLAIMS_PER_TICK)) this.hold(stored.job.id, stored.keyId);
    for (const id of this.robotsByJob.keys()) if (!this.held.has(id) && !this.working.has(id)) this.robotsByJob.delete(id);
    const runs: Promise<unknown>[] = [];
    for (const [jobId, { keyId, lease }] of this.held) {
      if (this.working.has(jobId)) continue;
      const stored = lease.lost ? undefined : await this.stores.jobs.get(keyId, jobId);
      const provider = stored && isActive(stored) ? this.providerOf(stored) : undefined;
      if (!stored || !provider) {
        await this.release(jobId);
        continue;
      }
      this.working.add(jobId);
      const done = () => this.working.delete(jobId);
      if (provider.pages?.oneStepPerTick ?? false) runs.push(this.leasedStep(stored, provider).finally(done));
      else void this.work(keyId, jobId).finally(done);
    }
    await Promise.all(runs);
  }

  /**
   * Runs one job until it ends, is cancelled, its lease is lost or the runner stops, claiming it
   * first unless this instance holds it (nothing to do when another instance does); releases it
   * at the end. Resolves when it has stopped.
   */
  async work(keyId: string, jobId: string): Promise<void> {
    if (this.stopping) return;
    this.working.add(jobId);
    try {
      if (!this.held.has(jobId)) {
        if (!(await this.stores.jobs.claim(jobId, this.terms.owner, this.clock.now(), this.terms.leaseMs))) return;
        this.hold(jobId, keyId);
      }
      // The first step is made even when the runner was told to stop meanwhile (stop() waits for it).
      do {
        const stored = await this.stores.jobs.get(keyId, jobId);
        if (!stored || !isActive(stored)) return;
        const provider = this.providerOf(stored);
        if (!provider || !(await this.leasedStep(stored, provider))) return;
      } while (!this.stopping && this.held.has(jobId));
    } finally {
      this.robotsByJob.delete(jobId);
      await this.release(jobId);
      this.working.delete(jobId);
    }
  }

  private hold(jobId: string, keyId: string): void {
    if (!this.held.has(jobId)) this.held.set(jobId, { keyId, lease: new HeldLease(this.stores.jobs.leases, jobId, this.terms, this.clock) });
  }

  /** Gives the job's lease up (if still ours), for any instance to claim. */
  private async release(jobId: string): Promise<void> {
    const held = this.held.get(jobId);
    if (!held) return;
    this.held.delete(jobId);
    await held.lease.release();
  }

  /** One step under the job's lease; false when the job has ended or the lease was lost (another instance has the job). */
  private async leasedStep(stored: StoredJob, provider: DataProvider): Promise<boolean> {
    const lease = this.held.get(stored.job.id)?.lease;
    if (!lease) return false;
    try {
      return await this.step(stored, provider, lease);
    } catch (error) {
      if (!(error instanceof LeaseLost)) throw error;
      this.held.delete(stored.job.id);
      lease.stop();
      return false;
    }
  }

  /** The provider the registry gives for the job's key and kind, when it can run the job. */
  private providerOf(stored: StoredJob): DataProvider | undefined {
    const operationId = JOB_OPERATION[stored.job.kind];
    return this.providers.runsJobs(stored, operationId) ? this.providers.providerFor(stored, operationId) : undefined;
  }

  /** One step of a job, every write of it under `lease` (a transaction that finds the lease lost throws `LeaseLost`); false when the job has ended. */
  private async step(stored: StoredJob, provider: DataProvider, lease: HeldLease): Promise<boolean> {
    const stores = leasedStores(this.stores, lease);
    if (stored.job.kind === 'agent') {
      const context = { stores, clock: this.clock, agentProvider: provider, pagesProvider: this.providers.providerFor(stored, AGENT_PAGES_OPERATION)!, ...(this.metrics ? { metrics: this.metrics } : {}) };
      return this.whileRunning(stored.job.id, lease, (signal) => agentJobStep(context, stored, signal));
    }
    const source = provider.pages!;
    const now = () => timestamp(this.clock.now());
    const job = stored.job;
    const progress = (await this.stores.jobs.progress<Progress>(job.id)) ?? initialProgress(stored);
    let robots: RobotsRules | undefined;
    if (job.kind === 'crawl') {
      if (!this.robotsByJob.has(job.id)) this.robotsByJob.set(job.id, source.robots(String(stored.request.url)));
      robots = await this.robotsByJob.get(job.id);
    }
    const policy = robots ? crawlPolicy(stored.request, robots) : undefined;

    if (job.status === 'queued') {
      if (robots && robots.isAllowed(String(stored.request.url)) === false) {
        await endJob(stores, this.clock, stored, { ...job, status: 'failed', updated_at: now(), started_at: now(), completed_at: now(), error: { code: 'provider_policy_denied', message: 'robots.txt of the site disallows its start URL.' } });
        return false;
      }
      const pagesTotal = job.kind === 'batch_scrape' ? progress.frontier.length : (source.crawlSize?.(String(stored.request.url), policy!.limit, policy!.follows) ?? null);
      await stores.database.transaction(async () => {
        await this.save(stored, { ...job, status: 'running', updated_at: now(), started_at: now(), pages_total: pagesTotal }, 'started');
        await this.stores.jobs.saveProgress(job.id, progress);
      });
      return true;
    }

    const done = job.pages_completed + job.pages_failed;
    const limit = policy?.limit ?? Infinity;
    const batch = progress.frontier.slice(0, Math.max(0, Math.min(source.pagesPerStep, limit - done)));
    if (batch.length === 0) {
      await endJob(stores, this.clock, stored, endedJob(job, await firstPage(this.stores, stored), now()));
      return false;
    }
    const fetched = await this.fetchBatch(stored, provider.name, source, batch, lease);
    if (fetched === undefined) return true;

    return stores.database.transaction(async () => {
      const current = await this.stores.jobs.get(stored.keyId, job.id);
      if (!current || current.job.status !== 'running') return false;
      let record: Job = { ...current.job, updated_at: now() };
      const operationId = JOB_OPERATION[job.kind];
      const cost = PAGE_COST[operationId] ?? 0;
      const frontier = progress.frontier.slice(batch.length);
      const seen = new Set(progress.seen);
      let seq = done;
      for (const result of fetched) {
        if (result.page.document) {
          const charge = await this.stores.ledger.charge(stored.keyId, cost, { jobId: job.id, operationId, pageSeq: seq + 1 }, new Date(this.clock.now()));
          if (!charge.ok) {
            await endJob(stores, this.clock, stored, { ...record, status: 'failed', completed_at: now(), error: { code: 'insufficient_credits', message: `The key's balance (${charge.balance}) does not cover the next page (${cost} credit${cost === 1 ? '' : 's'}); the pages stored so far are kept.` } });
            return false;
          }
          record = { ...record, pages_completed: record.pages_completed + 1, credits_used: record.credits_used + cost };
        } else {
          record = { ...record, pages_failed: record.pages_failed + 1 };
        }
        await this.stores.jobs.addPage(job.id, ++seq, result.page);
        await queueJobEvent(this.stores, this.clock, stored.keyId, record, 'page', result.page);
        for (const link of policy ? result.links : []) {
          if (seen.has(link) || !policy!.follows(link, result.depth)) continue;
          seen.add(link);
          frontier.push({ url: link, depth: result.depth + 1 });
        }
      }
      await this.stores.jobs.save(record);
      await this.stores.jobs.saveProgress(job.id, { ...progress, frontier, seen: [...seen] });
      return true;
    });
  }

  /**
   * Runs `run` with a signal that aborts once the job stops running (cancelled), its lease is lost
   * or the runner stops, so a long upstream call (a model's answer) does not outlive any of them.
   */
  private async whileRunning<T>(jobId: string, lease: HeldLease, run: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const controller = new AbortController();
    const watch = setInterval(async () => {
      const status = await this.stores.jobs.status(jobId);
      if (this.stopping || lease.lost || (status !== 'queued' && status !== 'running')) controller.abort(new Error('The job stopped running.'));
    }, STILL_RUNNING_CHECK_MS);
    watch.unref();
    try {
      return await run(controller.signal);
    } finally {
      clearInterval(watch);
    }
  }

  private async fetchOne(stored: StoredJob, providerName: string, source: PageSource, url: string, depth: number): Promise<Fetched> {
    const formats = String(stored.request.formats ?? 'markdown,metadata').split(',');
    const completedAt = timestamp(this.clock.now());
    try {
      const page = await source.page(url, { formats, onlyMainContent: stored.request.only_main_content !== false });
      return { url, depth, page: { url: page.url, document: page.document, error: null, completed_at: completedAt }, links: page.links };
    } catch (error) {
      const failure = error instanceof ProviderError ? error : new ProviderError('upstream_failed', (error as Error).message);
      this.metrics?.upstreamFailed(providerName, failure.code);
      return { url, depth, page: { url, document: null, error: { code: failure.code, message: failure.message }, completed_at: completedAt }, links: [] };
    }
  }

  /**
   * The batch's pages, `fetchesAtOnce` at a time, in frontier order; undefined when the job stopped
   * running (cancelled, its lease lost, or the runner stopping) before the batch was done.
   */
  private async fetchBatch(stored: StoredJob, providerName: string, source: PageSource, batch: Progress['frontier'], lease: HeldLease): Promise<Fetched[] | undefined> {
    const fetched: Fetched[] = [];
    let next = 0;
    let finished = 0;
    const stillRunning = async () => !this.stopping && !lease.lost && (await this.stores.jobs.status(stored.job.id)) === 'running';
    await Promise.all(Array.from({ length: Math.min(source.fetchesAtOnce, batch.length) }, async () => {
      while (next < batch.length && (await stillRunning())) {
        const index = next++;
        fetched[index] = await this.fetchOne(stored, providerName, source, batch[index]!.url, batch[index]!.depth);
        finished++;
      }
    }));
    return finished === batch.length ? fetched : undefined;
  }

  /** Saves the job and queues the webhook event it announces (call inside a transaction). */
  private async save(stored: StoredJob, job: Job, event: JobEventName): Promise<void> {
    await this.stores.jobs.save(job);
    await queueJobEvent(this.stores, this.clock, stored.keyId, job, event);
  }
}
