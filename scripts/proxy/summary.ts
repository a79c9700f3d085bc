/** What the proxy saw so far: calls, calls with a violation, and violations by kind and by operation. */
import { VIOLATION_KINDS, type Violation, type ViolationKind } from './violations.ts';

export interface SummaryFigures {
  requests: number;
  /** Calls with at least one violation. */
  requestsWithViolations: number;
  violations: number;
  byKind: Record<ViolationKind, number>;
  /** Violations by operationId (`unknown` for a call that addresses none). */
  byOperation: Record<string, number>;
}

export class Summary {
  private figures: SummaryFigures = {
    requests: 0,
    requestsWithViolations: 0,
    violations: 0,
    byKind: Object.fromEntries(VIOLATION_KINDS.map((kind) => [kind, 0])) as Record<ViolationKind, number>,
    byOperation: {},
  };

  /** Counts one call and its violations. */
  record(operationId: string | null, violations: readonly Violation[]): void {
    this.figures.requests += 1;
    if (violations.length === 0) return;
    this.figures.requestsWithViolations += 1;
    this.figures.violations += violations.length;
    for (const { kind } of violations) this.figures.byKind[kind] += 1;
    const key = operationId ?? 'unknown';
    this.figures.byOperation[key] = (this.figures.byOperation[key] ?? 0) + violations.length;
  }

  toJSON(): SummaryFigures {
    return structuredClone(this.figures);
  }

  /** A few lines for a terminal. */
  toText(): string {
    const { requests, requestsWithViolations, violations, byKind, byOperation } = this.figures;
    const kinds = Object.entries(byKind).filter(([, count]) => count > 0).map(([kind, count]) => `${kind} ${count}`);
    const operations = Object.entries(byOperation).map(([operation, count]) => `${operation} ${count}`);
    return [
      `validation proxy summary: ${requests} request(s), ${requestsWithViolations} with violations, ${violations} violation(s)`,
      ...(kinds.length > 0 ? [`  by kind: ${kinds.join(', ')}`, `  by operation: ${operations.join(', ')}`] : []),
    ].join('\n');
  }
}
