/** Which declared statuses of which operations the suite exercised, per target. */
import { contractOperations } from '../contract.ts';

export class Coverage {
  private readonly seen = new Map<string, Set<number>>();
  /** Operations without a provider on the target: their valid request answers 503 instead of 200. */
  private readonly unavailable: readonly string[];

  constructor(unavailable: readonly string[] = []) {
    this.unavailable = unavailable;
  }

  /** Records a status an operation answered in a passing case. */
  record(operationId: string, status: number): void {
    let statuses = this.seen.get(operationId);
    if (!statuses) this.seen.set(operationId, (statuses = new Set()));
    statuses.add(status);
  }

  /** Operations without a success case (or, without a provider, its 503) or without an error case. */
  gaps(): string[] {
    return contractOperations().flatMap(({ operationId }) => {
      const statuses = [...(this.seen.get(operationId) ?? [])];
      const missing: string[] = [];
      if (this.unavailable.includes(operationId)) {
        if (!statuses.includes(503)) missing.push(`${operationId} has no passing provider_unavailable case`);
      } else if (!statuses.includes(200)) missing.push(`${operationId} has no passing success case`);
      if (!statuses.some((status) => status >= 400)) missing.push(`${operationId} has no passing error case`);
      return missing;
    });
  }

  /** A table: one row per operation, a mark for each declared status exercised. */
  report(target: string): string {
    const rows = contractOperations().map((operation) => {
      const declared = Object.keys(operation.object.responses as object).map(Number);
      const statuses = this.seen.get(operation.operationId) ?? new Set<number>();
      const marks = declared.map((status) => (statuses.has(status) ? String(status) : ' · ')).join(' ');
      return `  ${operation.operationId.padEnd(22)} ${marks}  (${declared.filter((status) => statuses.has(status)).length}/${declared.length})`;
    });
    const exercised = contractOperations().reduce((sum, operation) => sum + (this.seen.get(operation.operationId)?.size ?? 0), 0);
    const declaredTotal = contractOperations().reduce((sum, operation) => sum + Object.keys(operation.object.responses as object).length, 0);
    return `Contract coverage on ${target}: ${exercised} of ${declaredTotal} declared operation × status pairs exercised\n${rows.join('\n')}`;
  }
}
