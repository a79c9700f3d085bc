/**
 * The few shapes of Redocly CLI's plugin API that the house rules use. The CLI bundles its own
 * openapi-core, so these are written out here rather than imported from a transitive dependency.
 */

/** A place in a file of the contract; `child` walks down, `key` points at the key instead of the value. */
export interface Location {
  readonly source: { readonly absoluteRef: string };
  readonly pointer: string;
  child(key: string | number | (string | number)[]): Location;
  key(): Location;
}

/** What a visitor function receives beside the node. */
export interface RuleContext {
  readonly key: string | number;
  readonly location: Location;
  report(problem: { message: string; location?: Location }): void;
  /** Follows a `$ref` (relative to `from`, by default the current file); a node that is not a `$ref` comes back as it is. */
  resolve<T = unknown>(node: unknown, from?: string): { node?: T; location?: Location };
}

export type VisitorFunction = (node: any, ctx: RuleContext) => void;

/** A Redocly visitor: node type names mapped to functions or to nested visitors with `enter`/`leave`. */
export interface Visitor {
  [nodeType: string]: VisitorFunction | Visitor | undefined;
}

/** A rule: built once per lint run from its settings in redocly.yaml. */
export type Rule = (options: Record<string, unknown>) => Visitor;

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
