/** The webhook events of crawl and batch-scrape jobs, queued in the transaction of the change they announce. */
import type { Clock } from '../clock.ts';
import { timestamp } from '../../lib/timestamp.ts';
import type { Stores } from '../store/index.ts';
import type { Job, JobPage } from '../store/jobs.ts';

export type JobEventName = 'started' | 'page' | 'completed' | 'failed' | 'cancelled';

/** Queues `<kind>.<event>` for the job's `webhook_url`, if it has one. Agent jobs send no events. */
export async function queueJobEvent(stores: Stores, clock: Clock, keyId: string, job: Job, event: JobEventName, page: JobPage | null = null): Promise<void> {
  if (!job.webhook_url || job.kind === 'agent') return;
  const type = `${job.kind}.${event}`;
  const now = clock.now();
  await stores.webhooks.enqueue(keyId, job.id, job.webhook_url, type, { type, timestamp: timestamp(now), data: { job, page } }, now);
}
