/** Finds the operation of the contract that a method and a path (below `/v1`) address, with its path parameters. */
import { operations, type OperationRow } from '../generated/operations.ts';

export type RouteMatch =
  | {
      kind: 'operation';
      operation: OperationRow;
      /** The path parameters, percent-decoded as Express decodes `req.params`; null when one is not well-formed percent-encoded UTF-8. */
      params: Record<string, string> | null;
    }
  | { kind: 'wrong-method'; allow: string[] }
  | { kind: 'unknown-path' };

interface CompiledPath {
  pattern: RegExp;
  /** The template's parameter names, in the order of the pattern's groups. */
  names: string[];
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
        .join('([^/]+)');
      const names = [...row.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!);
      compiled = { pattern: new RegExp(`^${source}$`), names, templated: names.length > 0, byMethod: new Map() };
      byPath.set(row.path, compiled);
    }
    compiled.byMethod.set(row.method, row);
  }
  return [...byPath.values()].sort((a, b) => Number(a.templated) - Number(b.templated));
}

const compiledPaths = compile(operations);

/** `value` percent-decoded as Express's router decodes a parameter (only when it holds a `%`); null when malformed. */
function decodeParameter(value: string): string | null {
  if (!value.includes('%')) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    return null;
  }
}

function parametersOf(compiled: CompiledPath, match: RegExpExecArray): Record<string, string> | null {
  const params: Record<string, string> = {};
  for (const [index, name] of compiled.names.entries()) {
    const value = decodeParameter(match[index + 1]!);
    if (value === null) return null;
    params[name] = value;
  }
  return params;
}

/** Matches `method` and `path` (without the `/v1` prefix) against the contract's operations. */
export function matchRoute(method: string, path: string): RouteMatch {
  for (const compiled of compiledPaths) {
    const match = compiled.pattern.exec(path);
    if (!match) continue;
    const operation = compiled.byMethod.get(method.toUpperCase());
    if (!operation) return { kind: 'wrong-method', allow: [...compiled.byMethod.keys()] };
    return { kind: 'operation', operation, params: parametersOf(compiled, match) };
  }
  return { kind: 'unknown-path' };
}
