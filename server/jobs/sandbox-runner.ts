/**
 * Runs sandbox jobs to completion, one step per job per tick: queued → running, then one page
 * per tick (each charged `x-credit-cost-per-page`), then completed. State lives in the store, so a
 * restarted server picks up where it stopped; a page is stored and charged in one step, never twice.
 */
import { repeat } from '../repeat.ts';
import { operations } from '../../generated/operations.ts';
import type { Clock } from '../clock.ts';
import { timestamp } from '../../lib/timestamp.ts';
import { sandboxAgentAnswer, sandboxCrawlUrls, sandboxDocument } from '../providers/sandbox/web-jobs.ts';
import { failOnMagicUrl } from '../providers/sandbox/magic-failures.ts';
import { ProviderError } from '../providers/types.ts';
import type { Job, JobPage, StoredJob } from '../store/jobs.ts';
import type { Stores } from '../store/index.ts';
import { inTransaction } from '../store/database.ts';
import { queueJobEvent, type JobEventName } from '../webhooks/job-events.ts';
import { endJob, endedJob, firstPage } from './job-end.ts';
import type { UpstreamErrorObserver } from '../operator/metrics.ts';

const PER_PAGE_COST = Object.fromEntries(operations.map((row) => [row.operationId, row.creditCostPerPage]));
const PAGE_COST: Record<Job['kind'], number> = {
  crawl: PER_PAGE_COST.crawlWebsite ?? 0,
  batch_scrape: PER_PAGE_COST.batchScrapeWebPages ?? 0,
  agent: 0,
};

function formatsOf(request: Record<string, unknown>): string[] {
  return String(request.formats ?? 'markdown,metadata').split(',');
}

/** The URLs a job visits, in order: fixed when it starts, so a restart visits the same ones. */
function plannedUrls(stored: StoredJob): string[] {
  const { request, job } = stored;
  if (job.kind === 'batch_scrape') return [...new Set((request.urls as string[]).filter((url) => !job.invalid_urls.includes(url)))];
  if (job.kind === 'crawl') return crawlUrls(String(request.url), Number(request.limit ?? 100), Number(request.max_depth ?? 3));
  return [];
}

/** A crawl's URLs; a start URL that fails (a magic host) is the only one, visited and stored with its error. */
function crawlUrls(startUrl: string, limit: number, maxDepth: number): string[] {
  try {
    return sandboxCrawlUrls(startUrl, limit, maxDepth);
  } catch (error) {
    if (error instanceof ProviderError) return [startUrl];
    throw error;
  }
}

export class SandboxJobRunner {
  private readonly stores: Stores;
  private readonly clock: Clock;
  private readonly metrics: UpstreamErrorObserver | undefined;
  private stopRepeating: (() => void) | undefined;

  /** `metrics` counts the pages the sandbox failed (provider `sandbox`). */
  constructor(stores: Stores, clock: Clock, metrics?: UpstreamErrorObserver) {
    this.stores = stores;
    this.clock = clock;
    this.metrics = metrics;
  }

  start(tickMs: number): void {
    this.stopRepeating = repeat(tickMs, () => this.tick());
  }

  stop(): void {
    this.stopRepeating?.();
  }

  /** Advances every active sandbox job by one step; each step is one transaction (page, charge and record together). */
  tick(): void {
    for (const stored of this.stores.jobs.active()) {
      if (stored.sandbox) inTransaction(this.stores.database, () => this.step(stored));
    }
  }

  private step(stored: StoredJob): void {
    const now = timestamp(this.clock.now());
    const job: Job = { ...stored.job, updated_at: now };
    if (job.status === 'queued') {
      const urls = plannedUrls(stored);
      this.save(stored, { ...job, status: 'running', started_at: now, pages_total: job.kind === 'agent' ? 0 : urls.length }, 'started');
      return;
    }
    if (job.kind === 'agent') {
      endJob(this.stores, this.clock, stored, this.agentRun(stored, job, now));
      return;
    }
    const urls = plannedUrls(stored);
    const seq = job.pages_completed + job.pages_failed;
    const url = urls[seq];
    if (url === undefined) {
      endJob(this.stores, this.clock, stored, endedJob(job, firstPage(this.stores, stored), now));
      return;
    }
    try {
      failOnMagicUrl(url);
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      this.metrics?.upstreamFailed('sandbox', error.code);
      const page = { url, document: null, error: { code: error.code, message: error.message }, completed_at: now };
      this.stores.jobs.addPage(job.id, seq + 1, page);
      this.save(stored, { ...job, pages_failed: job.pages_failed + 1 }, 'page', page);
      return;
    }
    const cost = PAGE_COST[job.kind];
    const charge = this.stores.ledger.charge(stored.keyId, cost, { jobId: job.id, operationId: job.kind === 'crawl' ? 'crawlWebsite' : 'batchScrapeWebPages' }, new Date(this.clock.now()));
    if (!charge.ok) {
      endJob(this.stores, this.clock, stored, { ...job, status: 'failed', completed_at: now, error: { code: 'insufficient_credits', message: `The key's balance (${charge.balance}) does not cover the next page (${cost} credit${cost === 1 ? '' : 's'}); the pages stored so far are kept.` } });
      return;
    }
    const document = sandboxDocument(url, formatsOf(stored.request), { onlyMainContent: stored.request.only_main_content !== false });
    const page = { url: document.url, document, error: null, completed_at: now };
    this.stores.jobs.addPage(job.id, seq + 1, page);
    this.save(stored, { ...job, pages_completed: job.pages_completed + 1, credits_used: job.credits_used + cost }, 'page', page);
  }

  /** The agent job answered, or failed with the upstream's error when its start URL fails. */
  private agentRun(stored: StoredJob, job: Job, now: string): Job {
    try {
      const answer = sandboxAgentAnswer(String(stored.request.url), String(stored.request.prompt), String(stored.request.model ?? 'spark-1-mini'));
      return { ...job, status: 'completed', completed_at: now, answer };
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      return { ...job, status: 'failed', completed_at: now, error: { code: error.code, message: error.message } };
    }
  }

  /** Saves the job and queues the webhook event it announces, in the step's transaction. */
  private save(stored: StoredJob, job: Job, event: JobEventName, page: JobPage | null = null): void {
    this.stores.jobs.save(job);
    queueJobEvent(this.stores, this.clock, stored.keyId, job, event, page);
  }
}
