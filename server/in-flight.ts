/**
 * The request work still running, so that shutdown closes the database only after it. A handler's
 * work can outlive its answer: an Idempotency-Key's 200 is stored just after it is sent, and a
 * caller's hang-up releases its key. A database closed under that work would leave the key claimed,
 * so the caller's retry would get 409 and, once the claim is reclaimed, run and be charged again.
 */
import type { ErrorRequestHandler, RequestHandler } from 'express';

export class InFlightWork {
  private readonly pending = new Set<Promise<unknown>>();

  /** Counts `work` until it settles; answers it unchanged. */
  track<T>(work: Promise<T>): Promise<T> {
    this.pending.add(work);
    work.then(
      () => this.pending.delete(work),
      () => this.pending.delete(work),
    );
    return work;
  }

  /** `handler`, its promise counted until it settles. */
  handler(handler: RequestHandler): RequestHandler {
    return (req, res, next) => {
      const result: unknown = handler(req, res, next);
      return result instanceof Promise ? this.track(result) : result;
    };
  }

  /** `handler`, an error handler (its four parameters kept, as Express needs), its promise counted. */
  errorHandler(handler: ErrorRequestHandler): ErrorRequestHandler {
    return (error, req, res, next) => {
      const result: unknown = handler(error, req, res, next);
      return result instanceof Promise ? this.track(result) : result;
    };
  }

  /** Resolves once no tracked work is running, work started meanwhile included. */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }
}
