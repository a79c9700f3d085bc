/**
 * The service's Prometheus metrics (prom-client), on a registry of its own per app so tests stay
 * isolated. Each fact is recorded where it happens: a request when its answer is sent, credits when
 * the ledger writes them, an upstream error where a provider's failure is mapped; jobs are counted
 * by status from the database when scraped. Labels are operationIds, statuses, provider names and
 * error codes, never a key id or anything a caller chose.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { LedgerObserver } from '../store/ledger.ts';

/** Where an upstream failure is recorded: data operations, the job runner, monitor checks. */
export interface UpstreamErrorObserver {
  upstreamFailed(provider: string, code: string): void;
}

export interface MetricsOptions {
  /** Also the process's own metrics (CPU, memory, event loop lag, handles); on in `npm start`. */
  processMetrics?: boolean;
}

/** The label of a request no operation of the contract matched (404, 405). */
export const NO_OPERATION = 'none';

const LATENCY_BUCKETS_SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

export class Metrics implements LedgerObserver, UpstreamErrorObserver {
  readonly registry = new Registry();
  private readonly requests: Counter<'operation' | 'status'>;
  private readonly latency: Histogram<'operation'>;
  private readonly charged: Counter<'operation'>;
  private readonly refunded: Counter<'operation'>;
  private readonly upstreamErrors: Counter<'provider' | 'code'>;
  private readonly jobs: Gauge<'status'>;

  constructor(options: MetricsOptions = {}) {
    const registers = [this.registry];
    this.requests = new Counter({ name: 'wsdq_http_requests_total', help: 'Answered requests under /v1, by operationId ("none" when no operation matched) and HTTP status.', labelNames: ['operation', 'status'], registers });
    this.latency = new Histogram({ name: 'wsdq_http_request_duration_seconds', help: 'Time from a request received to its answer sent, by operationId.', labelNames: ['operation'], buckets: LATENCY_BUCKETS_SECONDS, registers });
    this.charged = new Counter({ name: 'wsdq_credits_charged_total', help: 'Credits drawn by the ledger, by operationId (calls and job pages); refunds are counted apart.', labelNames: ['operation'], registers });
    this.refunded = new Counter({ name: 'wsdq_credits_refunded_total', help: 'Credits given back by the ledger because a call failed, by operationId; charged minus refunded is what callers paid.', labelNames: ['operation'], registers });
    this.upstreamErrors = new Counter({ name: 'wsdq_upstream_errors_total', help: 'Failures of a provider (its answer mapped to an error code), by provider and error code, from calls, job pages and monitor checks.', labelNames: ['provider', 'code'], registers });
    this.jobs = new Gauge({ name: 'wsdq_jobs', help: 'Jobs in the database, by status, read when scraped.', labelNames: ['status'], registers });
    if (options.processMetrics) collectDefaultMetrics({ register: this.registry });
  }

  /** One answered request; `operation` is its operationId, or NO_OPERATION. */
  requestFinished(operation: string, status: number, seconds: number): void {
    this.requests.inc({ operation, status: String(status) });
    this.latency.observe({ operation }, seconds);
  }

  creditsCharged(operationId: string | undefined, amount: number): void {
    this.charged.inc({ operation: operationId ?? NO_OPERATION }, amount);
  }

  creditsRefunded(operationId: string | undefined, amount: number): void {
    this.refunded.inc({ operation: operationId ?? NO_OPERATION }, amount);
  }

  upstreamFailed(provider: string, code: string): void {
    this.upstreamErrors.inc({ provider, code });
  }

  /** The exposition in Prometheus text format, with the job counts read now. */
  async text(jobsByStatus: Record<string, number>): Promise<string> {
    this.jobs.reset();
    for (const [status, count] of Object.entries(jobsByStatus)) this.jobs.set({ status }, count);
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
