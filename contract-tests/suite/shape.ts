/**
 * "The same shape", for comparing the mock's answer to a request with the sandbox server's.
 *
 * Two JSON values have the same shape when, recursively:
 * - both are `null`, or both are not `null` and have the same JSON type (string, number, boolean,
 *   array, object); an integer and a fraction are both numbers;
 * - as objects, they have exactly the same keys, and each key's values have the same shape;
 * - as arrays, their items at the same index have the same shape, as far as both arrays reach
 *   (their lengths may differ: each target answers within `limit`, checked apart).
 * Values themselves are not compared (made-up data differs), except the echoed fields a case
 * names, which must equal what the request sent.
 *
 * Some fields describe state that lies outside the request: a stored job's progress, a monitor's
 * checks, what else the key has stored. For these the operation names `loose` paths, where `null`
 * and not-`null` may differ (types are still compared when both are set), and `skipped` paths, not
 * compared at all. A path is written from `data`, with `[]` for any index: `jobs[].started_at`.
 */

type Json = unknown;

export interface ShapeRules {
  loose?: readonly string[];
  skipped?: readonly string[];
}

function jsonType(value: Json): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** Every way `actual` departs from the shape of `expected`, as `path: what` lines; empty when the shapes agree. */
export function shapeDifferences(actual: Json, expected: Json, rules: ShapeRules = {}, path = ''): string[] {
  if (rules.skipped?.includes(path)) return [];
  const actualType = jsonType(actual);
  const expectedType = jsonType(expected);
  const at = path || '(data)';
  if (actualType === 'null' || expectedType === 'null') {
    if (actualType === expectedType || rules.loose?.includes(path)) return [];
    return [`${at}: ${actualType} where the server has ${expectedType}`];
  }
  if (actualType !== expectedType) return [`${at}: ${actualType} where the server has ${expectedType}`];
  if (actualType === 'array') {
    const actualItems = actual as Json[];
    const expectedItems = expected as Json[];
    const shared = Math.min(actualItems.length, expectedItems.length);
    return Array.from({ length: shared }, (_, index) => shapeDifferences(actualItems[index], expectedItems[index], rules, `${path}[]`)).flat();
  }
  if (actualType !== 'object') return [];
  const actualRecord = actual as Record<string, Json>;
  const expectedRecord = expected as Record<string, Json>;
  const child = (key: string): string => (path ? `${path}.${key}` : key);
  const differences: string[] = [];
  for (const key of Object.keys(actualRecord)) if (!(key in expectedRecord)) differences.push(`${child(key)}: present where the server has no such field`);
  for (const key of Object.keys(expectedRecord)) if (!(key in actualRecord)) differences.push(`${child(key)}: absent where the server has it`);
  for (const key of Object.keys(actualRecord)) if (key in expectedRecord) differences.push(...shapeDifferences(actualRecord[key], expectedRecord[key], rules, child(key)));
  return differences;
}

/** The value at `path` (dots, from `data`). */
export function valueAt(data: Json, path: string): Json {
  return path.split('.').reduce<Json>((node, key) => (node as Record<string, Json> | undefined)?.[key], data);
}
