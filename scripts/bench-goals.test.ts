/** The benchmarks' goal rows: the median of the rounds decides, and rounds on both sides of the goal are called out. */
import { describe, expect, it } from 'vitest';
import { goalReport, roundsGoal } from './bench-goals.ts';

describe('the goal rows of the benchmarks', () => {
  it('judges by the median of the rounds, for each comparison', () => {
    expect(roundsGoal('ratio', [0.31, 0.36, 0.4], '≥', 0.33)).toEqual({ figure: 'ratio', value: '0.36 (0.31–0.40)', goal: '≥ 0.33', met: true, unsteady: true });
    expect(roundsGoal('ratio', [0.2, 0.25, 0.3], '≥', 0.5)).toMatchObject({ met: false, unsteady: false });
    expect(roundsGoal('ms', [0.3, 0.4, 0.6], '≤', 0.5)).toMatchObject({ met: true, unsteady: true });
    expect(roundsGoal('ms', [600, 700, 800], '<', 1000, 0)).toEqual({ figure: 'ms', value: '700 (600–800)', goal: '< 1000', met: true, unsteady: false });
    expect(roundsGoal('ms', [1000], '<', 1000)).toMatchObject({ value: '1000.00', met: false, unsteady: false });
  });

  it('prints a row per goal with its verdict, an unsteady one said to be no dependable verdict, and the count met', () => {
    const report = goalReport([roundsGoal('crawl ÷ raw', [0.3, 0.35, 0.4], '≥', 0.33), roundsGoal('RSS (MB)', [240], '<', 300, 0), roundsGoal('cached ÷ bare', [0.3, 0.4, 0.45], '≥', 0.5)]);
    expect(report.split('\n')).toEqual([
      'goals:',
      '  crawl ÷ raw    0.35 (0.30–0.40)  goal ≥ 0.33    met (rounds on both sides of the goal: not a dependable verdict)',
      '  RSS (MB)       240               goal < 300     met',
      '  cached ÷ bare  0.40 (0.30–0.45)  goal ≥ 0.5     NOT met',
      '  2 of 3 goals met',
    ]);
  });
});
