/**
 * How a job ends, for every job the job runner runs, sandbox or live. A crawl or batch scrape that has
 * visited every page ends `completed` when at least one page was stored with its document, and
 * `failed` when none was, with the cause in `job.error`: a job whose every page failed has nothing
 * to show, so it does not say it completed. A crawl or batch scrape that ends `failed` (for any
 * cause) with no page stored with its document charges nothing, and neither does an agent job that
 * ends `failed` (its agent or its start page failed: it has no answer): its submission charge is
 * refunded in the transaction that ends it, and its `credits_used` says 0. A cancelled job keeps
 * what it drew.
 */
import type { Clock } from '../clock.ts';
import type { Stores } from '../store/index.ts';
import { TERMINAL_STATUSES, type Job, type JobPage, type StoredJob } from '../store/jobs.ts';
import { queueJobEvent } from '../webhooks/job-events.ts';

type JobError = NonNullable<Job['error']>;

/** The job's error when no page could be stored: the first page's (for a crawl, its start page's). */
function nothingStored(job: Job, firstPage: JobPage): JobError {
  const cause = firstPage.error!;
  if (job.kind === 'crawl') return { code: cause.code, message: `The start page ${firstPage.url} could not be fetched, so nothing could be crawled: ${cause.message}` };
  const others = job.pages_failed - 1;
  const rest = others === 0 ? '' : `, nor could the ${others} other page${others === 1 ? '' : 's'}`;
  return { code: cause.code, message: `No page could be stored: ${firstPage.url} could not be fetched (${cause.message})${rest}.` };
}

/**
 * The job as it ends after visiting every page, at `now`. `firstPage` is the first page it stored
 * (with its document or its error), undefined when it stored none.
 */
export function endedJob(job: Job, firstPage: JobPage | undefined, now: string): Job {
  const ended: Job = { ...job, updated_at: now, completed_at: now, pages_total: job.pages_completed + job.pages_failed };
  if (job.pages_completed > 0 || !firstPage?.error) return { ...ended, status: 'completed' };
  return { ...ended, status: 'failed', error: nothingStored(job, firstPage) };
}

/** The first page the job stored, or undefined when it stored none. */
export async function firstPage(stores: Stores, stored: StoredJob): Promise<JobPage | undefined> {
  const first = await stores.jobs.pages(stored.keyId, stored.job, 1, undefined);
  return first === 'bad-cursor' ? undefined : first.pages[0];
}

const SUBMITTING_OPERATION: Record<Job['kind'], string> = { crawl: 'crawlWebsite', batch_scrape: 'batchScrapeWebPages', agent: 'runWebAgent' };

/** A crawl or batch scrape that failed before storing any page with its document keeps no credit, nor does a failed agent job (25 credits only for an answer). */
function refundsEverything(job: Job): boolean {
  return job.status === 'failed' && job.credits_used > 0 && (job.kind === 'agent' || job.pages_completed === 0);
}

/**
 * Saves `ended` (a job in a terminal state) and queues its `completed` or `failed` event, in one
 * transaction (a savepoint of the caller's); a failed agent job, and a failed crawl or batch
 * scrape that stored no page with its document, gets back all it drew (its submission charge), in one `refund` ledger row that
 * names the job and the submitting request, and ends with `credits_used` 0. Does nothing and
 * answers false when the job already ended (a second worker or a replayed step): the job's
 * state, read inside the transaction, is what makes a job end once and refund at most once (the
 * ledger's one-refund-per-job index backs it).
 */
export function endJob(stores: Stores, clock: Clock, stored: StoredJob, ended: Job): Promise<boolean> {
  return stores.database.transaction(async () => {
    const status = await stores.jobs.status(ended.id);
    if (status === undefined || TERMINAL_STATUSES.includes(status)) return false;
    let final = ended;
    if (refundsEverything(ended)) {
      await stores.ledger.refund(stored.keyId, ended.credits_used, { jobId: ended.id, requestId: stored.requestId ?? undefined, operationId: SUBMITTING_OPERATION[ended.kind] }, new Date(clock.now()));
      final = { ...ended, credits_used: 0 };
    }
    await stores.jobs.save(final);
    await queueJobEvent(stores, clock, stored.keyId, final, final.status === 'failed' ? 'failed' : 'completed');
    return true;
  });
}
