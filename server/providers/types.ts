/** What a data provider is: the upstream behind an operation, real or the built-in sandbox. */
import type { ErrorCode } from '../../generated/errors.ts';
import type { OperationId } from '../../generated/operations.ts';
import type { components } from '../../generated/types.ts';

type WebDocument = components['schemas']['WebDocument'];

/** Operations answered synchronously by a provider: their `data` comes straight from it. */
export const DATA_OPERATION_IDS = [
  'scrapeWebPage', 'searchWeb', 'mapWebsite', 'extractWebData', 'listCollectionVideos', 'getPriceHistory', 'getMicroblogPost', 'listSocialEvents',
] as const satisfies readonly OperationId[];
export type DataOperationId = (typeof DATA_OPERATION_IDS)[number];

/** Every operation a provider can serve, and so every key PROVIDER_ROUTES may have: the data operations, the jobs the job runner fetches pages for, and the agent's jobs. */
export const PROVIDER_OPERATION_IDS: readonly OperationId[] = [...DATA_OPERATION_IDS, 'crawlWebsite', 'batchScrapeWebPages', 'runWebAgent'];

export interface ProviderCall {
  operationId: DataOperationId;
  /** Query parameters as validated by the contract: integers and booleans already typed; absent ones absent. */
  query: Record<string, unknown>;
  /** Aborted when the caller's time runs out or the server shuts down. */
  signal: AbortSignal;
}

/** How a job or a monitor check wants one page converted. */
export interface PageRequest {
  formats: string[];
  onlyMainContent: boolean;
  signal?: AbortSignal;
}

/** One page as a source gives it: its final URL, its HTTP status (null when none), its document (exactly the asked formats) and every link on it. */
export interface SourcedPage {
  url: string;
  statusCode: number | null;
  document: WebDocument;
  links: string[];
}

/** A site's robots.txt rules; undefined when they say nothing of the URL. */
export interface RobotsRules {
  isAllowed(url: string): boolean | undefined;
}

/**
 * Where jobs (crawl, batch scrape) and monitor checks get their pages: the sandbox makes them up,
 * the web provider fetches them under the address policy. Pacing is the source's: the job runner
 * takes `pagesPerStep` pages of a job per step, `fetchesAtOnce` at a time, and runs one step per
 * tick (`oneStepPerTick`, the sandbox's pace) or steps back to back.
 */
export interface PageSource {
  readonly pagesPerStep: number;
  readonly fetchesAtOnce: number;
  readonly oneStepPerTick: boolean;
  /** Fetches and converts one page; a failure is a ProviderError with the contract's code. */
  page(url: string, request: PageRequest): Promise<SourcedPage>;
  /** The robots.txt rules of the site of `startUrl` (none, when it has none or cannot be read). */
  robots(startUrl: string): Promise<RobotsRules>;
  /**
   * How many pages a crawl from `startUrl` will visit, up to `limit`, following the links that
   * `follows(link, depth)` accepts, when the source knows it ahead (the sandbox); shown as the
   * running job's `pages_total`.
   */
  crawlSize?(startUrl: string, limit: number, follows: (link: string, depth: number) => boolean): number;
}

/**
 * Where a `web/agent` job stands before its next step, as the job runner saved it: what the job
 * asks, every page read so far and how many more it may open.
 */
export interface AgentState {
  prompt: string;
  /** The job's `model` (`spark-1-mini`, `spark-1-pro`): it sets the page budget. */
  model: string;
  startUrl: string;
  /** Every page read so far, the start page first; a page that could not be read says so in its `markdown`. */
  pagesRead: { url: string; markdown: string }[];
  /** Pages the agent may still open; at 0 it must answer. */
  pagesLeft: number;
}

/** The agent's next move: open one more page (fetched by the job runner), or answer. */
export type AgentMove = { action: 'open'; url: string } | { action: 'answer'; text: string; data: Record<string, unknown> | null };

/**
 * Runs `web/agent` jobs one step at a time: the job runner saves each step and asks for the next
 * move; the pages it opens are fetched by the job runner, not by the agent. A failure is a
 * ProviderError; `signal` aborts when the job is cancelled or the runner stops.
 */
export interface WebAgent {
  step(state: AgentState, signal: AbortSignal): Promise<AgentMove>;
}

/**
 * A monitor's change, for the judge: the monitor's goal, the check's unified diff (what a model
 * reads: the lines removed and added, with 3 lines of context; the judge bounds its size) and the
 * monitor's `url` (the page in mode scrape, the monitor's reference in mode search).
 */
export interface JudgeRequest {
  goal: string;
  diff: string;
  url: string;
  signal: AbortSignal;
}

/** Says whether a monitor's change meets its goal (`judge_enabled`), in the contract's MonitorCheckJudgement shape; a failure is a ProviderError. */
export interface MonitorJudge {
  judge(request: JudgeRequest): Promise<components['schemas']['MonitorCheckJudgement']>;
}

/**
 * One provider: answers the `data` of the data operations routed to it, and may offer more. Each
 * optional capability is asked for through the registry, under the operation that routes it:
 * `pages` under `crawlWebsite`, `batchScrapeWebPages` (jobs) and `scrapeWebPage` (monitor checks),
 * `agent` under `runWebAgent` (reading its pages from the page source routed under
 * `scrapeWebPage`), `judge` under `extractWebData` (the model provider); a monitor in
 * mode search calls `fetch` of the provider routed for `searchWeb`.
 */
export interface DataProvider {
  readonly name: string;
  fetch(call: ProviderCall): Promise<Record<string, unknown>>;
  pages?: PageSource;
  agent?: WebAgent;
  judge?: MonitorJudge;
  /** Closes the provider's connections to its upstream (an adapter's pool); called once, at shutdown. */
  close?(): Promise<void>;
}

/** A failure of the upstream, with the contract's error code for it and the headers its answer carries (`Retry-After`). */
export class ProviderError extends Error {
  readonly code: ErrorCode;
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.code = code;
    this.headers = headers;
  }
}
