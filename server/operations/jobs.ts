/** Crawl, batch scrape and agent submissions, and the jobs they create: list, get (with pages), cancel or delete. */
import type { OperationId } from '../../generated/operations.ts';
import { queuedJob } from '../../lib/records.ts';
import { timestamp } from '../../lib/timestamp.ts';
import { ServiceError } from '../gateway/service-error.ts';
import { invalidParameters, providerUnavailable } from '../../lib/error-messages.ts';
import { decodeCursor } from '../store/cursor.ts';
import { TERMINAL_STATUSES, type Job } from '../store/jobs.ts';
import { checkTarget } from './targets.ts';
import type { OperationContext, OperationHandler } from './types.ts';
import { queueJobEvent } from '../webhooks/job-events.ts';

const DEFAULT_PAGE_SIZE = 20;

function invalid(problem: string): ServiceError {
  return new ServiceError('invalid_parameters', invalidParameters([problem]));
}

function requireJobRunner(context: OperationContext): void {
  if (!context.deps.providers.runsJobs(context.key, context.operation.operationId)) {
    throw new ServiceError('provider_unavailable', providerUnavailable(context.operation));
  }
}

function checkPathPatterns(body: Record<string, any>): void {
  for (const field of ['include_paths', 'exclude_paths']) {
    for (const pattern of String(body[field] ?? '').split(',').filter(Boolean)) {
      try {
        new RegExp(pattern);
      } catch (error) {
        throw invalid(`body.${field} pattern "${pattern}" is not a regular expression: ${(error as Error).message}`);
      }
    }
  }
}

function checkWebhookUrl(context: OperationContext): void {
  if (context.body?.webhook_url) checkTarget(context, context.body.webhook_url, 'body.webhook_url');
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

function isAllowedTarget(context: OperationContext, url: string): boolean {
  try {
    checkTarget(context, url, 'body.urls');
    return true;
  } catch {
    return false;
  }
}

/**
 * Splits a batch's URLs into distinct valid ones and the others; refuses the others (malformed:
 * invalid_parameters, non-public: url_not_allowed) unless told to skip them.
 */
function batchUrls(context: OperationContext): { valid: string[]; invalid: string[] } {
  const body = context.body!;
  const urls = body.urls as string[];
  const malformed = urls.filter((url) => !isHttpUrl(url));
  const refused = urls.filter((url) => isHttpUrl(url) && !isAllowedTarget(context, url));
  const invalidUrls = urls.filter((url) => malformed.includes(url) || refused.includes(url));
  const valid = [...new Set(urls.filter((url) => !invalidUrls.includes(url)))];
  if (body.ignore_invalid_urls !== true) {
    if (malformed.length > 0) throw invalid(`body.urls holds URLs that are not absolute http or https URLs: ${malformed.map((url) => JSON.stringify(url)).join(', ')}`);
    if (refused.length > 0) throw new ServiceError('url_not_allowed', `body.urls holds URLs of non-public addresses: ${refused.map((url) => JSON.stringify(url)).join(', ')}.`);
  }
  if (valid.length === 0) throw invalid('body.urls holds no valid URL');
  return { valid, invalid: invalidUrls };
}

function submit(kind: Job['kind'], check: (context: OperationContext) => void, fields: (context: OperationContext) => Partial<Job>): OperationHandler {
  return {
    check(context) {
      check(context);
      requireJobRunner(context);
    },
    async run(context) {
      const job = queuedJob(kind, context.deps.clock.now(), context.operation.creditCost, context.body ?? {}, fields(context));
      await context.deps.stores.jobs.insert({ job, keyId: context.key.id, sandbox: context.key.sandbox, request: context.body ?? {}, requestId: context.call.requestId });
      return { job };
    },
  };
}

function listLimit(context: OperationContext): number {
  return Number(context.query.limit ?? DEFAULT_PAGE_SIZE);
}

async function ownedJob(context: OperationContext): Promise<Job> {
  const stored = await context.deps.stores.jobs.get(context.key.id, context.params.job_id!);
  if (!stored) throw new ServiceError('resource_not_found', `No job ${context.params.job_id} for this API key.`);
  return stored.job;
}

export const jobHandlers: Partial<Record<OperationId, OperationHandler>> = {
  crawlWebsite: submit('crawl', (context) => {
    checkPathPatterns(context.body!);
    checkTarget(context, context.body!.url, 'body.url');
    checkWebhookUrl(context);
  }, ({ body }) => ({ url: body!.url })),
  batchScrapeWebPages: submit('batch_scrape', (context) => {
    batchUrls(context);
    checkWebhookUrl(context);
  }, (context) => {
    const { valid, invalid: skipped } = batchUrls(context);
    return { pages_total: valid.length, invalid_urls: skipped };
  }),
  runWebAgent: submit('agent', () => undefined, ({ body }) => ({ url: body!.url, pages_total: 0, webhook_url: null })),

  listJobs: {
    async run(context) {
      const cursor = context.query.cursor as string | undefined;
      const after = cursor === undefined ? undefined : decodeCursor(cursor, 'jobs', context.key.id);
      if (cursor !== undefined && after === undefined) throw invalid('query.cursor was not issued for this list');
      const { jobs, nextCursor } = await context.deps.stores.jobs.list(context.key.id, listLimit(context), after);
      return { jobs, next_cursor: nextCursor };
    },
  },

  getJob: {
    async run(context) {
      const job = await ownedJob(context);
      const page = await context.deps.stores.jobs.pages(context.key.id, job, listLimit(context), context.query.cursor as string | undefined);
      if (page === 'bad-cursor') throw invalid('query.cursor was not issued for the pages of this job');
      return { job, pages: page.pages, next_cursor: page.nextCursor };
    },
  },

  deleteJob: {
    async run(context) {
      const job = await ownedJob(context);
      if (TERMINAL_STATUSES.includes(job.status)) {
        await context.deps.stores.jobs.remove(job.id);
        return { job, deleted: true };
      }
      const now = timestamp(context.deps.clock.now());
      const cancelled: Job = { ...job, status: 'cancelled', updated_at: now, completed_at: now };
      await context.deps.stores.database.transaction(async () => {
        await context.deps.stores.jobs.save(cancelled);
        await queueJobEvent(context.deps.stores, context.deps.clock, context.key.id, cancelled, 'cancelled');
      });
      return { job: cancelled, deleted: false };
    },
  },
};
