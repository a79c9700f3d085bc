/**
 * Runs live crawl and batch-scrape jobs with the web provider's safe fetcher. Each step takes up to
 * PAGES_PER_STEP pages of the job's frontier and fetches them FETCHES_PER_JOB at a time (and never
 * more than FETCHES_PER_HOST at once to one host, whichever jobs ask), each page converted on the
 * conversion pool as soon as it arrives; then it stores them, charges them and saves the new
 * frontier in one transaction: a job interrupted by a restart resumes from its last saved step,
 * with no page charged twice and none lost. A job cancelled mid-step starts no further fetch, and
 * the step's pages are neither stored nor charged.
 */
import robotsParserModule from 'robots-parser';
import { operations } from '../../generated/operations.ts';
import type { Clock } from '../clock.ts';
import { timestamp } from '../../lib/timestamp.ts';
import { fetchPage, statusFailure, type FetchContext } from '../outbound/fetch-page.ts';
import { conversionPool } from '../providers/web/conversion-pool.ts';
import { isPdf } from '../providers/web/pdf-to-document.ts';
import { ProviderError } from '../providers/types.ts';
import { inTransaction } from '../store/database.ts';
import type { Stores } from '../store/index.ts';
import type { Job, JobPage, StoredJob } from '../store/jobs.ts';
import { repeat } from '../repeat.ts';
import type { UpstreamErrorObserver } from '../operator/metrics.ts';
import { queueJobEvent, type JobEventName } from '../webhooks/job-events.ts';
import { HostSlots } from './host-slots.ts';
import { endJob, endedJob, firstPage } from './job-end.ts';

interface Progress {
  frontier: { url: string; depth: number }[];
  seen: string[];
  /** A crawl's start may be refused by robots.txt: then the job fails with provider_policy_denied. */
  robotsChecked: boolean;
}

type Fetched = { url: string; depth: number; page: JobPage; links: string[] };

const PAGE_COST: Record<string, number> = Object.fromEntries(operations.map((row) => [row.operationId, row.creditCostPerPage]));
const PAGES_PER_STEP = 16;
const FETCHES_PER_JOB = 4;
/** Requests in flight to one host, across every job. */
const FETCHES_PER_HOST = 4;

/** robots-parser is CommonJS: its default import is the parser function itself. */
const robotsParser = robotsParserModule as unknown as (url: string, text: string) => { isAllowed(url: string): boolean | undefined };

function compilePatterns(text: unknown): RegExp[] {
  return String(text ?? '').split(',').filter(Boolean).map((pattern) => new RegExp(pattern));
}

export class LiveJobRunner {
  private readonly stores: Stores;
  private readonly clock: Clock;
  private readonly fetchContext: FetchContext;
  private readonly working = new Set<string>();
  private readonly hostSlots = new HostSlots(FETCHES_PER_HOST);
  /** robots.txt per job, read once per run of the job rather than once per step. */
  private readonly robotsByJob = new Map<string, Promise<{ isAllowed(url: string): boolean | undefined }>>();
  private readonly metrics: UpstreamErrorObserver | undefined;
  private stopRepeating: (() => void) | undefined;
  private stopping = false;

  /** `metrics` counts the pages the site failed (provider `web`). */
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
    this.stopping = true;
    this.stopRepeating?.();
  }

  /** Starts a worker for every active live job that has none. */
  tick(): void {
    for (const stored of this.stores.jobs.active()) {
      if (stored.sandbox || this.working.has(stored.job.id) || stored.job.kind === 'agent') continue;
      this.working.add(stored.job.id);
      void this.work(stored.keyId, stored.job.id).finally(() => this.working.delete(stored.job.id));
    }
  }

  /** Runs one job until it ends, is cancelled, or the runner stops. Resolves when it has stopped. */
  async work(keyId: string, jobId: string): Promise<void> {
    try {
      while (!this.stopping) {
        const stored = this.stores.jobs.get(keyId, jobId);
        if (!stored || (stored.job.status !== 'queued' && stored.job.status !== 'running')) return;
        if (!(await this.step(stored))) return;
      }
    } finally {
      this.robotsByJob.delete(jobId);
    }
  }

  private initialProgress(stored: StoredJob): Progress {
    const { request, job } = stored;
    if (job.kind === 'batch_scrape') {
      const urls = [...new Set((request.urls as string[]).filter((url) => !job.invalid_urls.includes(url)))];
      return { frontier: urls.map((url) => ({ url, depth: 0 })), seen: urls, robotsChecked: true };
    }
    return { frontier: [{ url: String(request.url), depth: 0 }], seen: [String(request.url)], robotsChecked: false };
  }

  private async robots(startUrl: string): Promise<{ isAllowed(url: string): boolean | undefined }> {
    const robotsUrl = new URL('/robots.txt', startUrl).href;
    try {
      const page = await this.hostSlots.run(robotsUrl, () => fetchPage(robotsUrl, this.fetchContext));
      return robotsParser(robotsUrl, page.status < 400 ? page.body.toString('utf8') : '');
    } catch {
      return robotsParser(robotsUrl, '');
    }
  }

  private follows(stored: StoredJob, link: string): boolean {
    const { request } = stored;
    const start = new URL(String(request.url));
    const url = new URL(link);
    if (url.hostname !== start.hostname && request.allow_external_links !== true) return false;
    if (url.hostname === start.hostname && request.allow_backward_links !== true && !url.pathname.startsWith(start.pathname.replace(/[^/]*$/, ''))) return false;
    const includes = compilePatterns(request.include_paths);
    const excludes = compilePatterns(request.exclude_paths);
    if (excludes.some((pattern) => pattern.test(url.pathname))) return false;
    if (includes.length > 0 && !includes.some((pattern) => pattern.test(url.pathname))) return false;
    return true;
  }

  private async fetchOne(stored: StoredJob, url: string, depth: number): Promise<Fetched> {
    const formats = String(stored.request.formats ?? 'markdown,metadata').split(',');
    const completedAt = timestamp(this.clock.now());
    try {
      const page = await this.hostSlots.run(url, () => fetchPage(url, this.fetchContext));
      const failure = statusFailure(page);
      if (failure) throw failure;
      const withLinks = [...new Set([...formats, 'links'])];
      const document = isPdf(page)
        ? await conversionPool.pdf(page, formats, true)
        : await conversionPool.html(page, { formats: withLinks, onlyMainContent: stored.request.only_main_content !== false, removeBase64Images: true, blockAds: true });
      const links = document.links ?? [];
      if (!formats.includes('links')) delete document.links;
      return { url, depth, page: { url: page.url, document, error: null, completed_at: completedAt }, links };
    } catch (error) {
      const failure = error instanceof ProviderError ? error : new ProviderError('upstream_failed', (error as Error).message);
      this.metrics?.upstreamFailed('web', failure.code);
      return { url, depth, page: { url, document: null, error: { code: failure.code, message: failure.message }, completed_at: completedAt }, links: [] };
    }
  }

  /**
   * The batch's pages, FETCHES_PER_JOB at a time, in frontier order; undefined when the job stopped
   * running (cancelled, or the runner stopping) before the batch was done.
   */
  private async fetchBatch(stored: StoredJob, batch: Progress['frontier']): Promise<Fetched[] | undefined> {
    const fetched: Fetched[] = [];
    let next = 0;
    let finished = 0;
    const stillRunning = () => !this.stopping && this.stores.jobs.status(stored.job.id) === 'running';
    await Promise.all(Array.from({ length: Math.min(FETCHES_PER_JOB, batch.length) }, async () => {
      while (next < batch.length && stillRunning()) {
        const index = next++;
        fetched[index] = await this.fetchOne(stored, batch[index]!.url, batch[index]!.depth);
        finished++;
      }
    }));
    return finished === batch.length ? fetched : undefined;
  }

  /** Saves the job and queues the webhook event it announces (call inside a transaction). */
  private save(stored: StoredJob, job: Job, event: JobEventName): void {
    this.stores.jobs.save(job);
    queueJobEvent(this.stores, this.clock, stored.keyId, job, event);
  }

  /** One step of a job; false when the job has ended. */
  private async step(stored: StoredJob): Promise<boolean> {
    const now = () => timestamp(this.clock.now());
    const job = stored.job;
    const progress = this.stores.jobs.progress<Progress>(job.id) ?? this.initialProgress(stored);
    const limit = job.kind === 'crawl' ? Number(stored.request.limit ?? 100) : Infinity;
    const maxDepth = Number(stored.request.max_depth ?? 3);
    let robots: { isAllowed(url: string): boolean | undefined } | undefined;
    if (job.kind === 'crawl') {
      if (!this.robotsByJob.has(job.id)) this.robotsByJob.set(job.id, this.robots(String(stored.request.url)));
      robots = await this.robotsByJob.get(job.id);
    }

    if (job.status === 'queued') {
      if (robots && robots.isAllowed(String(stored.request.url)) === false) {
        endJob(this.stores, this.clock, stored, { ...job, status: 'failed', updated_at: now(), started_at: now(), completed_at: now(), error: { code: 'provider_policy_denied', message: 'robots.txt of the site disallows its start URL.' } });
        return false;
      }
      inTransaction(this.stores.database, () => {
        this.save(stored, { ...job, status: 'running', updated_at: now(), started_at: now(), pages_total: job.kind === 'batch_scrape' ? progress.frontier.length : null }, 'started');
        this.stores.jobs.saveProgress(job.id, progress);
      });
      return true;
    }

    const done = job.pages_completed + job.pages_failed;
    const batch = progress.frontier.slice(0, Math.max(0, Math.min(PAGES_PER_STEP, limit - done)));
    if (batch.length === 0) {
      endJob(this.stores, this.clock, stored, endedJob(job, firstPage(this.stores, stored), now()));
      return false;
    }
    const fetched = await this.fetchBatch(stored, batch);
    if (fetched === undefined) return true;

    return inTransaction(this.stores.database, () => {
      const current = this.stores.jobs.get(stored.keyId, job.id);
      if (!current || current.job.status !== 'running') return false;
      let record: Job = { ...current.job, updated_at: now() };
      const cost = PAGE_COST[job.kind === 'crawl' ? 'crawlWebsite' : 'batchScrapeWebPages'] ?? 0;
      const frontier = progress.frontier.slice(batch.length);
      const seen = new Set(progress.seen);
      let seq = done;
      for (const result of fetched) {
        if (result.page.document) {
          const charge = this.stores.ledger.charge(stored.keyId, cost, { jobId: job.id, operationId: job.kind === 'crawl' ? 'crawlWebsite' : 'batchScrapeWebPages' }, new Date(this.clock.now()));
          if (!charge.ok) {
            endJob(this.stores, this.clock, stored, { ...record, status: 'failed', completed_at: now(), error: { code: 'insufficient_credits', message: `The key's balance (${charge.balance}) does not cover the next page; the pages stored so far are kept.` } });
            return false;
          }
          record = { ...record, pages_completed: record.pages_completed + 1, credits_used: record.credits_used + cost };
        } else {
          record = { ...record, pages_failed: record.pages_failed + 1 };
        }
        this.stores.jobs.addPage(job.id, ++seq, result.page);
        queueJobEvent(this.stores, this.clock, stored.keyId, record, 'page', result.page);
        if (job.kind === 'crawl' && result.depth < maxDepth) {
          for (const link of result.links) {
            if (seen.has(link) || !this.follows(stored, link) || robots?.isAllowed(link) === false) continue;
            seen.add(link);
            frontier.push({ url: link, depth: result.depth + 1 });
          }
        }
      }
      this.stores.jobs.save(record);
      this.stores.jobs.saveProgress(job.id, { ...progress, frontier, seen: [...seen] });
      return true;
    });
  }
}
