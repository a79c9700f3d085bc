/** Visits every operation under `paths` (webhooks excluded) with a name a reader can find it by. */
import { isObject, type JsonObject, type Location, type RuleContext, type Visitor } from './types.ts';

/** An operation of the contract, as the house rules see it. */
export interface VisitedOperation {
  readonly operation: JsonObject;
  /** `getJob (GET /web/jobs/{job_id})`, or `GET /web/jobs/{job_id}` without an operationId. */
  readonly name: string;
  readonly path: string;
  readonly method: string;
  readonly location: Location;
  readonly report: RuleContext['report'];
  /** Follows a `$ref` written in the file `from`; gives back the node and where it lives. */
  readonly resolve: (node: unknown, from: Location) => { node: unknown; location: Location } | undefined;
}

export function operationName(operation: JsonObject, method: string, path: string): string {
  const endpoint = `${method.toUpperCase()} ${path}`;
  return typeof operation.operationId === 'string' ? `${operation.operationId} (${endpoint})` : endpoint;
}

/** A visitor that hands every operation under `paths` to `check`. */
export function everyOperation(check: (visited: VisitedOperation) => void): Visitor {
  let path = '';
  return {
    Paths: {
      PathItem: {
        enter: (_pathItem: unknown, ctx: RuleContext) => {
          path = String(ctx.key);
        },
        Operation: (operation: JsonObject, ctx: RuleContext) => {
          const method = String(ctx.key);
          check({
            operation,
            name: operationName(operation, method, path),
            path,
            method,
            location: ctx.location,
            report: (problem) => ctx.report(problem),
            resolve: (node, from) => {
              if (!isObject(node) || typeof node.$ref !== 'string') return { node, location: from };
              const resolved = ctx.resolve(node, from.source.absoluteRef);
              return resolved.location ? { node: resolved.node, location: resolved.location } : undefined;
            },
          });
        },
      },
    },
  };
}

/** Lists values as `a, b and c` (or `a, b or c`). */
export function listed(values: readonly unknown[], conjunction: 'and' | 'or' = 'and'): string {
  const words = values.map(String);
  return words.length <= 1 ? words.join('') : `${words.slice(0, -1).join(', ')} ${conjunction} ${words.at(-1)}`;
}
