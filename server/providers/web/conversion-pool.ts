/**
 * HTML and PDF to document conversion on worker threads. Converting is the web provider's heaviest
 * work (parsing, main-content extraction, Markdown, PDF text); on workers it runs beside the event loop, which
 * keeps answering requests and fetching the next pages. Each worker has a bounded heap and each
 * page a time bound: a hostile page (huge, deeply nested, pathological) fails with
 * `upstream_failed` and costs one worker, which is replaced, never the process.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { components } from '../../../generated/types.ts';
import { ProviderError } from '../types.ts';
import type { FetchedPage } from '../../outbound/fetch-page.ts';
import type { ConvertOptions } from './html-to-document.ts';

type WebDocument = components['schemas']['WebDocument'];

/** What to make of a page: its HTML converted, or the text of a PDF (`parse: false` keeps only its metadata). */
export type ConversionTask = { kind: 'html'; options: ConvertOptions } | { kind: 'pdf'; formats: readonly string[]; parse: boolean };

export interface ConversionRequest {
  id: number;
  page: FetchedPage;
  task: ConversionTask;
}

/** A failure carries the contract's error code when the converter named one. */
export type ConversionResult = { id: number; document: WebDocument } | { id: number; error: string; code?: ProviderError['code'] };

/** What a worker says once its modules are loaded and it takes pages. */
export const WORKER_READY = 'ready';

export interface ConversionPoolOptions {
  /** Worker threads at most; they start with the first pages that need them. */
  size: number;
  /** Time one page may take to convert, unless its caller sets another. */
  timeoutMs: number;
  /** Old-generation heap of each worker. */
  maxHeapMb: number;
}

interface Task {
  request: ConversionRequest;
  timeoutMs: number;
  resolve(document: WebDocument): void;
  reject(error: Error): void;
}

interface Running {
  task: Task;
  /** Unset while the worker is still starting. */
  timer: NodeJS.Timeout | undefined;
}

/**
 * One worker fewer than the cores (the event loop has the other), at least one. A page gets 20 s
 * (the largest page a fetch allows, 10 MB, converts in about 12 s on a 2-core machine) unless its
 * caller, a scrape with its own `timeout`, sets another.
 */
export const DEFAULT_CONVERSION_OPTIONS: ConversionPoolOptions = {
  size: Math.max(1, Math.min(4, availableParallelism() - 1)),
  timeoutMs: 20_000,
  maxHeapMb: 512,
};

const WORKER_URL = new URL('./conversion-worker.ts', import.meta.url);

export class ConversionPool {
  private readonly options: ConversionPoolOptions;
  private readonly idle: Worker[] = [];
  private readonly running = new Map<Worker, Running>();
  private readonly starting = new Set<Worker>();
  private readonly retired = new WeakSet<Worker>();
  private readonly queue: Task[] = [];
  private workers = 0;
  private nextId = 1;

  constructor(options: ConversionPoolOptions = DEFAULT_CONVERSION_OPTIONS) {
    this.options = options;
  }

  /** The HTML page as the contract's WebDocument, converted on a worker within `timeoutMs` (the pool's bound by default). */
  html(page: FetchedPage, options: ConvertOptions, timeoutMs = this.options.timeoutMs): Promise<WebDocument> {
    return this.run(page, { kind: 'html', options }, timeoutMs);
  }

  /** The PDF as the contract's WebDocument, its text read on a worker within `timeoutMs`. */
  pdf(page: FetchedPage, formats: readonly string[], parse: boolean, timeoutMs = this.options.timeoutMs): Promise<WebDocument> {
    return this.run(page, { kind: 'pdf', formats, parse }, timeoutMs);
  }

  private run(page: FetchedPage, task: ConversionTask, timeoutMs: number): Promise<WebDocument> {
    return new Promise((resolve, reject) => {
      this.queue.push({ request: { id: this.nextId++, page, task }, timeoutMs, resolve, reject });
      this.dispatch();
    });
  }

  /** Stops every worker; pages still waiting fail. */
  async close(): Promise<void> {
    const workers = [...this.idle, ...this.running.keys()];
    for (const task of this.queue.splice(0)) task.reject(new ProviderError('service_unavailable', 'The service is shutting down.'));
    for (const worker of workers) this.retire(worker, new ProviderError('service_unavailable', 'The service is shutting down.'));
    await Promise.all(workers.map((worker) => worker.terminate()));
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const worker = this.idle.pop() ?? (this.workers < this.options.size ? this.spawn() : undefined);
      if (!worker) return;
      const task = this.queue.shift()!;
      this.running.set(worker, { task, timer: undefined });
      // A worker with a page keeps the process alive until it answers; an idle one does not.
      worker.ref();
      if (!this.starting.has(worker)) this.startTimer(worker);
      // The body is copied to a buffer of its own and moved, not cloned: a Buffer is often a view
      // over a larger socket buffer, and cloning a view copies all of the memory under it.
      const body = new Uint8Array(task.request.page.body);
      worker.postMessage({ ...task.request, page: { ...task.request.page, body } }, [body.buffer]);
    }
  }

  /** The page's time bound runs from when its worker is ready: starting a worker is not the page's fault. */
  private startTimer(worker: Worker): void {
    const running = this.running.get(worker);
    if (!running) return;
    const { timeoutMs } = running.task;
    running.timer = setTimeout(() => this.retire(worker, new ProviderError('upstream_failed', `The page could not be converted within ${timeoutMs} ms.`)), timeoutMs);
  }

  private spawn(): Worker {
    const worker = new Worker(WORKER_URL, { resourceLimits: { maxOldGenerationSizeMb: this.options.maxHeapMb, maxYoungGenerationSizeMb: 12 } });
    this.workers++;
    this.starting.add(worker);
    worker.on('message', (result: ConversionResult | typeof WORKER_READY) => {
      if (result === WORKER_READY) {
        this.starting.delete(worker);
        this.startTimer(worker);
        return;
      }
      const running = this.running.get(worker);
      if (!running || running.task.request.id !== result.id) return;
      clearTimeout(running.timer);
      this.running.delete(worker);
      if ('document' in result) running.task.resolve(result.document);
      else running.task.reject(result.code ? new ProviderError(result.code, result.error) : new ProviderError('upstream_failed', `The page could not be converted: ${result.error}`));
      worker.unref();
      this.idle.push(worker);
      this.dispatch();
    });
    worker.on('error', (error: Error & { code?: string }) => {
      const message = error.code === 'ERR_WORKER_OUT_OF_MEMORY'
        ? `The page could not be converted within the ${this.options.maxHeapMb} MB of memory a page may use.`
        : `The page could not be converted: ${error.message}.`;
      this.retire(worker, new ProviderError('upstream_failed', message));
    });
    worker.on('exit', () => this.retire(worker, new ProviderError('upstream_failed', 'The page could not be converted: the converter stopped.')));
    return worker;
  }

  /** Takes a worker out of the pool (its page, if any, fails with `error`) and lets another start. */
  private retire(worker: Worker, error: Error): void {
    if (this.retired.has(worker)) return;
    this.retired.add(worker);
    this.starting.delete(worker);
    this.workers--;
    const index = this.idle.indexOf(worker);
    if (index >= 0) this.idle.splice(index, 1);
    const running = this.running.get(worker);
    this.running.delete(worker);
    if (running) {
      clearTimeout(running.timer);
      running.task.reject(error);
    }
    void worker.terminate();
    this.dispatch();
  }
}

/** The process's pool, shared by scrape, map, crawl, batch scrape and monitors. */
