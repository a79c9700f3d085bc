/**
 * Where this contract needs another classification than api-smart-diff's, each case found on real
 * edits of the contract (scripts/contract-diff/classification.test.ts keeps them):
 * - a replaced `type` in an answer counts as non-breaking for the library (it reverses every
 *   answer rule, so a replacement, which both widens and narrows, passes); here a `type` change is
 *   judged by its sets of types: a request may only widen, an answer only narrow (`integer` lies
 *   within `number`);
 * - a replaced or removed `const` in an answer is breaking (the library reverses it too);
 * - a property removed from a closed request object (`additionalProperties: false`, as every
 *   request body here is) is breaking: a client still sending it is refused with 422;
 * - a new value of an answer's enum is additive: the contract's versioning policy lets answers gain
 *   enum values (new error codes, new job states), and clients must accept unknown values.
 */
import { nodeAt, type Diff } from './compare.ts';
import type { ComparedDocuments } from './locate.ts';

type Direction = 'request' | 'response';

function directionOf(path: Diff['path']): Direction | undefined {
  const area = path[3];
  if (area === 'parameters' || area === 'requestBody') return 'request';
  if (area === 'responses') return 'response';
  return undefined;
}

function typesOf(schema: unknown): Set<string> | undefined {
  const type = (schema as { type?: unknown } | undefined)?.type;
  if (typeof type === 'string') return new Set([type]);
  if (Array.isArray(type)) return new Set(type.map(String));
  return undefined;
}

/** Whether every type of `inner` is one of `outer`'s (an `integer` is a `number`). */
function within(inner: Set<string>, outer: Set<string>): boolean {
  return [...inner].every((type) => outer.has(type) || (type === 'integer' && outer.has('number')));
}

/** The gate's classification of `diff` where it differs from the library's, else undefined. */
export function correctedBreaking(diff: Diff, documents: ComparedDocuments): boolean | undefined {
  const direction = directionOf(diff.path);
  if (!direction) return undefined;
  const typeAt = diff.path.lastIndexOf('type');
  if (typeAt > 0 && typeAt >= diff.path.length - 2 && diff.path[typeAt - 1] !== 'properties') {
    const schemaPath = diff.path.slice(0, typeAt);
    const before = typesOf(nodeAt(documents.base, schemaPath));
    const after = typesOf(nodeAt(documents.head, schemaPath));
    if (before && after) return direction === 'request' ? !within(before, after) : !within(after, before);
  }
  const last = diff.path.at(-1);
  if (direction === 'response' && last === 'const' && diff.action !== 'add') return true;
  if (direction === 'request' && diff.action === 'remove' && diff.path.at(-2) === 'properties') {
    const parent = nodeAt(documents.base, diff.path.slice(0, -2)) as { additionalProperties?: unknown } | undefined;
    if (parent?.additionalProperties === false) return true;
  }
  if (direction === 'response' && diff.path.at(-2) === 'enum' && diff.action === 'add') return false;
  return undefined;
}
