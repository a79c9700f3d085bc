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
}

/** The goals table, one row per goal, and a last line counting the goals met. */
export function goalReport(rows: readonly GoalRow[]): string {
  const width = Math.max(...rows.map((row) => row.figure.length));
  const valueWidth = Math.max(...rows.map((row) => row.value.length));
  const lines = rows.map((row) => `  ${row.figure.padEnd(width)}  ${row.value.padEnd(valueWidth)}  goal ${row.goal.padEnd(8)}  ${row.met ? 'met' : 'NOT met'}`);
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
