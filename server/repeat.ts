/** Runs `work` every `intervalMs` without keeping the process alive; a run still going when the next is due makes that one skip. Returns the stop function. */
export function repeat(intervalMs: number, work: () => unknown): () => void {
  let running = false;
  const timer = setInterval(async () => {
    if (running) return;
    running = true;
    try {
      await work();
    } finally {
      running = false;
    }
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
