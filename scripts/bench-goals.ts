/**
 * How every benchmark ends: one line per goal of issue 14, the figure beside the goal and whether
 * it is met. Figures that are ratios were measured against a baseline in the same run.
 */
export interface GoalRow {
  /** What was measured, e.g. `valid scrape, mock ÷ bare Node`. */
  figure: string;
  /** The figure as printed, e.g. `0.31 (0.28–0.33 over 3 rounds)`. */
  value: string;
  /** The goal as printed, e.g. `≥ 0.3`. */
  goal: string;
  met: boolean;
  /** Some rounds met the goal and some did not: the verdict is the median's, and says it is not dependable. */
  unsteady?: boolean;
}

type Comparison = '≥' | '≤' | '<';

function meets(value: number, comparison: Comparison, goal: number): boolean {
  return comparison === '≥' ? value >= goal : comparison === '≤' ? value <= goal : value < goal;
}

/**
 * The goal row of a figure measured in rounds: the median decides, and a row whose rounds fall on
 * both sides of the goal says so (on this 2-core machine one round can be 30% off another).
 */
export function roundsGoal(figure: string, rounds: readonly number[], comparison: Comparison, goal: number, digits = 2): GoalRow {
  const metBy = rounds.filter((value) => meets(value, comparison, goal)).length;
  return { figure, value: medianAndRange(rounds, digits), goal: `${comparison} ${goal}`, met: meets(median(rounds), comparison, goal), unsteady: metBy > 0 && metBy < rounds.length };
}

/** The goals table, one row per goal, and a last line counting the goals met. */
export function goalReport(rows: readonly GoalRow[]): string {
  const width = Math.max(...rows.map((row) => row.figure.length));
  const valueWidth = Math.max(...rows.map((row) => row.value.length));
  const verdict = (row: GoalRow) => `${row.met ? 'met' : 'NOT met'}${row.unsteady ? ' (rounds on both sides of the goal: not a dependable verdict)' : ''}`;
  const lines = rows.map((row) => `  ${row.figure.padEnd(width)}  ${row.value.padEnd(valueWidth)}  goal ${row.goal.padEnd(8)}  ${verdict(row)}`);
  return ['goals:', ...lines, `  ${rows.filter((row) => row.met).length} of ${rows.length} goals met`].join('\n');
}

/** The median of `values` (the upper one of an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** `0.31 (0.28–0.33)`: the median, and the range when there is more than one value. */
export function medianAndRange(values: readonly number[], digits = 2): string {
  const shown = median(values).toFixed(digits);
  if (values.length < 2) return shown;
  return `${shown} (${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)})`;
}
