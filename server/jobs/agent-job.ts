/**
 * One step of an agent job, sandbox or live, for the job runner. The first step opens the start
 * URL; each later step asks the provider's agent for its next move given the saved state (the
 * prompt, the pages read so far, the pages left in the model's budget): `open` fetches the page
 * from the page source routed for the key (under the address policy, for the web provider) and
 * saves it, a page that fails being saved as a failed read; `answer` completes the job with
 * `job.answer`. Every read is saved in the job's progress in one transaction, so a restarted
 * runner resumes after the last saved read and fetches no saved page again; a job cancelled
 * meanwhile saves nothing more. A job whose start page cannot be read, or whose agent fails,
 * ends `failed` (and `job-end.ts` refunds it).
 */
import type { components } from '../../generated/types.ts';
import { agentFailedUnexpectedly, agentOverBudget, agentStartPageUnreadable } from '../../lib/error-messages.ts';
import { timestamp } from '../../lib/timestamp.ts';
import type { Clock } from '../clock.ts';
import type { UpstreamErrorObserver } from '../operator/metrics.ts';
import { ProviderError, type AgentMove, type AgentState, type DataProvider, type PageSource } from '../providers/types.ts';
import type { Stores } from '../store/index.ts';
import type { Job, StoredJob } from '../store/jobs.ts';
import { endJob } from './job-end.ts';

type AgentAnswer = components['schemas']['AgentAnswer'];
type JobError = NonNullable<Job['error']>;

/** Pages an agent job may read, the start page included, per `model`: the contract's AgentRequest says the same. */
export const AGENT_PAGE_BUDGET: Readonly<Record<string, number>> = { 'spark-1-mini': 5, 'spark-1-pro': 15 };

/** Characters of a page's Markdown saved for the agent (and so shown to it): enough for any model's context. */
export const AGENT_PAGE_CHARACTERS = 100_000;

/** One page the agent opened: its final URL and Markdown, or the URL asked for and why it could not be read. */
export type AgentRead = { url: string; markdown: string } | { url: string; error: JobError };

/** What an agent job saves with every step (the job's `progress`). */
export interface AgentProgress {
  reads: AgentRead[];
}

export interface AgentStepContext {
  stores: Stores;
  clock: Clock;
  /** The provider whose `agent` runs the job. */
  agentProvider: DataProvider;
  /** The provider whose page source the agent reads from. */
  pagesProvider: DataProvider;
  metrics?: UpstreamErrorObserver;
}

function budgetOf(stored: StoredJob): number {
  return AGENT_PAGE_BUDGET[String(stored.request.model ?? 'spark-1-mini')] ?? AGENT_PAGE_BUDGET['spark-1-mini']!;
}

/** The state the agent is asked with: a failed read is shown as a note, so the agent does not ask for it again. */
function stateOf(stored: StoredJob, reads: AgentRead[]): AgentState {
  return {
    prompt: String(stored.request.prompt),
    model: String(stored.request.model ?? 'spark-1-mini'),
    startUrl: String(stored.request.url),
    pagesRead: reads.map((read) => ('markdown' in read ? read : { url: read.url, markdown: `[This page could not be read (${read.error.code}): ${read.error.message}]` })),
    pagesLeft: Math.max(0, budgetOf(stored) - reads.length),
  };
}

/** The pages the answer is drawn from: every page read, in reading order, without duplicates. */
function sourcesOf(reads: AgentRead[]): string[] {
  return [...new Set(reads.filter((read) => 'markdown' in read).map((read) => read.url))];
}

async function readPage(context: AgentStepContext, pages: PageSource, url: string, signal: AbortSignal): Promise<AgentRead> {
  try {
    const page = await pages.page(url, { formats: ['markdown'], onlyMainContent: false, signal });
    return { url: page.url, markdown: String(page.document.markdown ?? '').slice(0, AGENT_PAGE_CHARACTERS) };
  } catch (error) {
    const failure = error instanceof ProviderError ? error : new ProviderError('upstream_failed', (error as Error).message);
    context.metrics?.upstreamFailed(context.pagesProvider.name, failure.code);
    return { url, error: { code: failure.code, message: failure.message } };
  }
}

/** Ends the job `failed` with `error` (job-end.ts refunds its submission). */
async function fail(context: AgentStepContext, stored: StoredJob, error: JobError): Promise<false> {
  const now = timestamp(context.clock.now());
  await endJob(context.stores, context.clock, stored, { ...stored.job, status: 'failed', updated_at: now, completed_at: now, error });
  return false;
}

/**
 * One step of the agent job `stored`; false when the job has ended or stopped running (cancelled,
 * or `signal` aborted: the runner stopping). Nothing of an aborted step is saved.
 */
export async function agentJobStep(context: AgentStepContext, stored: StoredJob, signal: AbortSignal): Promise<boolean> {
  const { stores, clock } = context;
  const now = () => timestamp(clock.now());
  const { job } = stored;
  if (job.status === 'queued') {
    await stores.database.transaction(async () => {
      await stores.jobs.save({ ...job, status: 'running', updated_at: now(), started_at: now(), pages_total: 0 });
      await stores.jobs.saveProgress(job.id, { reads: [] } satisfies AgentProgress);
    });
    return true;
  }

  const reads = (await stores.jobs.progress<AgentProgress>(job.id))?.reads ?? [];
  const state = stateOf(stored, reads);
  let move: AgentMove;
  try {
    move = reads.length === 0 ? { action: 'open', url: state.startUrl } : await context.agentProvider.agent!.step(state, signal);
  } catch (error) {
    if (signal.aborted) return false;
    const failure = error instanceof ProviderError ? error : new ProviderError('upstream_failed', agentFailedUnexpectedly());
    context.metrics?.upstreamFailed(context.agentProvider.name, failure.code);
    return fail(context, stored, { code: failure.code, message: failure.message });
  }
  if (signal.aborted) return false;

  if (move.action === 'answer') {
    const answer: AgentAnswer = { text: move.text, data: move.data as AgentAnswer['data'], sources: sourcesOf(reads) };
    await endJob(stores, clock, stored, { ...job, status: 'completed', updated_at: now(), completed_at: now(), answer });
    return false;
  }
  if (state.pagesLeft === 0) return fail(context, stored, { code: 'upstream_failed', message: agentOverBudget(budgetOf(stored), move.url) });

  const read = await readPage(context, context.pagesProvider.pages!, move.url, signal);
  if (signal.aborted) return false;
  if (reads.length === 0 && 'error' in read) return fail(context, stored, { code: read.error.code, message: agentStartPageUnreadable(read.url, read.error.message) });
  return stores.database.transaction(async () => {
    if ((await stores.jobs.status(job.id)) !== 'running') return false;
    await stores.jobs.save({ ...job, updated_at: now() });
    await stores.jobs.saveProgress(job.id, { reads: [...reads, read] } satisfies AgentProgress);
    return true;
  });
}
