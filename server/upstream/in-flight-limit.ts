/** At most `limit` calls at once; the others wait in order, and leave the queue when their signal aborts. */
export class InFlightLimit {
  private inFlight = 0;
  private readonly waiting: { start: () => void; signal: AbortSignal; abandon: () => void }[] = [];

  private readonly limit: number;

  constructor(limit: number) {
    this.limit = limit;
  }

  /** Runs `task` once a place is free; rejects with the signal's reason if it aborts first. */
  async run<T>(signal: AbortSignal, task: () => Promise<T>): Promise<T> {
    await this.place(signal);
    try {
      return await task();
    } finally {
      this.inFlight--;
      this.next();
    }
  }

  private place(signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    if (this.inFlight < this.limit) {
      this.inFlight++;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const entry = {
        signal,
        start: () => {
          signal.removeEventListener('abort', entry.abandon);
          this.inFlight++;
          resolve();
        },
        abandon: () => {
          this.waiting.splice(this.waiting.indexOf(entry), 1);
          reject(signal.reason);
        },
      };
      signal.addEventListener('abort', entry.abandon, { once: true });
      this.waiting.push(entry);
    });
  }

  private next(): void {
    if (this.inFlight < this.limit) this.waiting.shift()?.start();
  }
}
