/** What a failed run reports: by default one line on standard error. */
export type RepeatFailure = (error: unknown) => void;

/** The default report of periodic work that failed: one line on standard error. */
export const reportOnStderr: RepeatFailure = (error) => {
  console.error(`periodic work failed, and runs again at its next interval: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
};

/**
 * Runs `work` every `intervalMs` without keeping the process alive; a run still going when the
 * next is due makes that one skip. A run that throws is reported to `onFailure` and the next run
 * goes ahead: one bad job, check or delivery must never stop the process. Returns the stop function.
 */
export function repeat(intervalMs: number, work: () => unknown, onFailure: RepeatFailure = reportOnStderr): () => void {
  let running = false;
  const timer = setInterval(async () => {
    if (running) return;
    running = true;
    try {
      await work();
    } catch (error) {
      onFailure(error);
    } finally {
      running = false;
    }
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
