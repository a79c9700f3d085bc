/** repeat(): periodic work for the job runner, the webhook dispatcher, the monitor scheduler and maintenance. */
import { setTimeout as delay } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { repeat } from './repeat.ts';

describe('repeat', () => {
  it('a run that threw stopped the server (an unhandled rejection): it is reported and the next run goes ahead', async () => {
    const failures: unknown[] = [];
    let runs = 0;
    const stop = repeat(5, () => {
      runs++;
      if (runs === 1) throw new Error('a job tick failed');
    }, (error) => failures.push(error));
    await expect.poll(() => runs, { timeout: 2000 }).toBeGreaterThanOrEqual(3);
    stop();
    expect(failures).toEqual([new Error('a job tick failed')]);
  });

  it('skips a run while the previous one is still going', async () => {
    let concurrent = 0;
    let most = 0;
    const stop = repeat(2, async () => {
      concurrent++;
      most = Math.max(most, concurrent);
      await delay(20);
      concurrent--;
    });
    await delay(100);
    stop();
    expect(most).toBe(1);
  });
});
