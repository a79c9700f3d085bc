/**
 * Politeness across jobs: at most a few requests in flight to one host at a time, whichever jobs
 * make them. Requests beyond that wait their turn, first come first served.
 */
export class HostSlots {
  private readonly perHost: number;
  private readonly inFlight = new Map<string, number>();
  private readonly waiting = new Map<string, (() => void)[]>();

  constructor(perHost: number) {
    this.perHost = perHost;
  }

  /** Runs `task` once the host of `url` has a free slot, and frees it after. */
  async run<T>(url: string, task: () => Promise<T>): Promise<T> {
    const host = new URL(url).host;
    await this.acquire(host);
    try {
      return await task();
    } finally {
      this.release(host);
    }
  }

  private acquire(host: string): Promise<void> {
    const count = this.inFlight.get(host) ?? 0;
    if (count < this.perHost) {
      this.inFlight.set(host, count + 1);
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const queue = this.waiting.get(host) ?? [];
      queue.push(resolve);
      this.waiting.set(host, queue);
    });
  }

  /** Hands the slot to the next waiting request, or frees it. */
  private release(host: string): void {
    const next = this.waiting.get(host)?.shift();
    if (next) return next();
    if (this.waiting.get(host)?.length === 0) this.waiting.delete(host);
    const count = (this.inFlight.get(host) ?? 1) - 1;
    if (count > 0) this.inFlight.set(host, count);
    else this.inFlight.delete(host);
  }
}
