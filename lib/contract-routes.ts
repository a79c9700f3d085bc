/** Finds the operation of the contract that a method and a path (below `/v1`) address. */
import { operations, type OperationRow } from '../generated/operations.ts';

export type RouteMatch =
  | { kind: 'operation'; operation: OperationRow }
  | { kind: 'wrong-method'; allow: string[] }
  | { kind: 'unknown-path' };

interface CompiledPath {
  pattern: RegExp;
  /** Literal paths win over templated ones, as in OpenAPI path matching. */
  templated: boolean;
  byMethod: Map<string, OperationRow>;
}

function compile(rows: readonly OperationRow[]): CompiledPath[] {
  const byPath = new Map<string, CompiledPath>();
  for (const row of rows) {
    let compiled = byPath.get(row.path);
    if (!compiled) {
      const source = row.path
        .split(/\{[^}]+\}/)
        .map((literal) => literal.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
        .join('[^/]+');
      compiled = { pattern: new RegExp(`^${source}$`), templated: row.path.includes('{'), byMethod: new Map() };
      byPath.set(row.path, compiled);
    }
    compiled.byMethod.set(row.method, row);
  }
  return [...byPath.values()].sort((a, b) => Number(a.templated) - Number(b.templated));
}

const compiledPaths = compile(operations);

/** Matches `method` and `path` (without the `/v1` prefix) against the contract's operations. */
export function matchRoute(method: string, path: string): RouteMatch {
  const compiled = compiledPaths.find((candidate) => candidate.pattern.test(path));
  if (!compiled) return { kind: 'unknown-path' };
  const operation = compiled.byMethod.get(method.toUpperCase());
  if (!operation) return { kind: 'wrong-method', allow: [...compiled.byMethod.keys()] };
  return { kind: 'operation', operation };
}
