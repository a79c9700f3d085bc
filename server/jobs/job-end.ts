/**
 * How a crawl or batch-scrape job ends once it has visited every page, for the live and the
 * sandbox runners alike: `completed` when at least one page was stored with its document;
 * `failed` when none was, with the cause in `job.error`. A job whose every page failed has
 * nothing to show, so it does not say it completed.
 */
import type { Stores } from '../store/index.ts';
import type { Job, JobPage, StoredJob } from '../store/jobs.ts';

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
export function firstPage(stores: Stores, stored: StoredJob): JobPage | undefined {
  const first = stores.jobs.pages(stored.keyId, stored.job, 1, undefined);
  return first === 'bad-cursor' ? undefined : first.pages[0];
}
