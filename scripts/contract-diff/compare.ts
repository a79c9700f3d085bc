/**
 * The diff itself, by api-smart-diff (udamir/api-smart-diff): it compares two OpenAPI documents
 * operation by operation, through their `$ref`s, with JSON Schema 2020-12 semantics for 3.1 (type
 * arrays, `const`), and classifies each difference as breaking or not, requests and responses each
 * in their direction. The gate only prepares the two documents for it: examples dropped (they are
 * annotations, and most of the bundle's size) and webhooks presented as what they are to a
 * receiver, an answer it reads (api-smart-diff does not read 3.1's `webhooks`).
 */
import { apiCompare, type Diff } from 'api-smart-diff';

export type { Diff };

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

/** The path key under which a webhook is compared: no real path has a space in it. */
export const webhookPathPrefix = 'webhook ';
/** The pseudo-status under which a webhook's payload is compared as an answer. */
export const webhookPayloadStatus = 'payload';

const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/** `node` itself, or what its internal `$ref` (and theirs, in turn) points to in `doc`. */
export function resolved(doc: unknown, node: unknown, depth = 0): unknown {
  if (!isObject(node) || typeof node.$ref !== 'string' || !node.$ref.startsWith('#/') || depth > 32) return node;
  const target = node.$ref
    .slice(2)
    .split('/')
    .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce<unknown>((at, segment) => (isObject(at) || Array.isArray(at) ? (at as Record<string, unknown>)[segment] : undefined), doc);
  return resolved(doc, target, depth + 1);
}

/** The node at `path` in `doc`, following every internal `$ref` on the way (and at the end). */
export function nodeAt(doc: unknown, path: readonly (string | number)[]): unknown {
  let node = resolved(doc, doc);
  for (const segment of path) {
    if (!isObject(node) && !Array.isArray(node)) return undefined;
    node = resolved(doc, (node as Record<string, unknown>)[segment]);
  }
  return node;
}

/** The document without `example`/`examples` (keeping properties of those names). */
function withoutExamples(node: Json, parentKey = ''): Json {
  if (Array.isArray(node)) return node.map((item) => withoutExamples(item));
  if (!isObject(node)) return node;
  const kept = Object.entries(node).filter(([key]) => parentKey === 'properties' || (key !== 'examples' && key !== 'example'));
  return Object.fromEntries(kept.map(([key, value]) => [key, withoutExamples(value, key)]));
}

/** Each webhook as a pseudo-operation under `paths`, its payload an answer and its header parameters that answer's headers. */
function webhooksAsAnswers(doc: JsonObject): JsonObject {
  const webhooks = isObject(doc.webhooks) ? doc.webhooks : {};
  const paths: JsonObject = { ...(isObject(doc.paths) ? doc.paths : {}) };
  for (const [name, item] of Object.entries(webhooks)) {
    const operations: JsonObject = {};
    for (const [method, operation] of Object.entries(isObject(item) ? item : {})) {
      if (!isObject(operation)) continue;
      const headers: JsonObject = {};
      for (const parameter of Array.isArray(operation.parameters) ? operation.parameters : []) {
        const header = resolved(doc, parameter);
        if (isObject(header) && header.in === 'header' && typeof header.name === 'string') {
          const { name: headerName, in: _in, ...rest } = header;
          headers[headerName] = rest;
        }
      }
      const body = resolved(doc, operation.requestBody);
      const { parameters: _parameters, requestBody: _requestBody, responses: _responses, ...described } = operation;
      operations[method] = {
        ...described,
        responses: { [webhookPayloadStatus]: { description: 'payload', headers, content: isObject(body) ? body.content ?? {} : {} } },
      };
    }
    paths[`${webhookPathPrefix}${name}`] = operations;
  }
  const { webhooks: _webhooks, ...rest } = doc;
  return { ...rest, paths };
}

/** A bundled contract prepared for the comparison; `nodeAt` on it finds what a diff's path names. */
export function prepareForComparison(bundle: string): JsonObject {
  return webhooksAsAnswers(withoutExamples(JSON.parse(bundle) as Json) as JsonObject);
}

const refSegments = (ref: string): string[] => ref.slice(2).split('/').map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'));

/** Every internal `$ref` reachable from `node`, and what it points to, each once. */
function reachableRefs(doc: JsonObject, node: Json, found = new Map<string, Json>()): Map<string, Json> {
  if (Array.isArray(node)) {
    for (const item of node) reachableRefs(doc, item, found);
  } else if (isObject(node)) {
    const ref = node.$ref;
    if (typeof ref === 'string' && ref.startsWith('#/') && !found.has(ref)) {
      const target = (nodeAt(doc, refSegments(ref)) ?? null) as Json;
      found.set(ref, target);
      reachableRefs(doc, target, found);
    }
    for (const value of Object.values(node)) reachableRefs(doc, value, found);
  }
  return found;
}

/** A path item as the diff sees it: its own text and the text of everything its `$ref`s reach. */
function pathItemText(doc: JsonObject, item: Json): string {
  const refs = [...reachableRefs(doc, item)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify([item, refs]);
}

/** The component sections a `$ref` names; `securitySchemes` are named by `security`, not by `$ref`, and are kept whole. */
const referencedSections = new Set(['schemas', 'parameters', 'responses', 'requestBodies', 'headers', 'examples', 'links', 'callbacks', 'pathItems']);

/** `doc` with `paths` and, of its components, only what those paths reach (or `doc`'s components whole when a `$ref` points elsewhere). */
function withPaths(doc: JsonObject, paths: JsonObject): JsonObject {
  const refs = [...reachableRefs(doc, paths).keys()].map(refSegments);
  const named = refs.flatMap(([root, section, name]) => (root === 'components' && section !== undefined && referencedSections.has(section) && name !== undefined ? [{ section, name }] : []));
  if (!isObject(doc.components) || named.length < refs.length) return { ...doc, paths };
  const components: JsonObject = Object.fromEntries(Object.entries(doc.components).filter(([section]) => !referencedSections.has(section)));
  for (const { section, name } of named) {
    const source = doc.components[section];
    if (!isObject(source) || !(name in source)) continue;
    const kept = (components[section] ??= {}) as JsonObject;
    kept[name] = source[name] ?? null;
  }
  return { ...doc, paths, components };
}

/**
 * The two documents without the paths that are the same in both, through every `$ref` they reach,
 * and without the components that only those paths used. The gate reports differences under
 * `paths` only (locate.ts), and the diff of an unchanged path is empty, so what is left out
 * changes nothing reported; it spares api-smart-diff most of its work, since a real edit touches a
 * few of ~40 operations. Everything else in the documents is kept as it is.
 */
function withoutUnchangedPaths(base: JsonObject, head: JsonObject): { base: JsonObject; head: JsonObject } {
  const basePaths = isObject(base.paths) ? base.paths : {};
  const headPaths = isObject(head.paths) ? head.paths : {};
  const unchanged = new Set(Object.keys(basePaths).filter((path) => path in headPaths && pathItemText(base, basePaths[path] ?? null) === pathItemText(head, headPaths[path] ?? null)));
  const changed = (paths: JsonObject): JsonObject => Object.fromEntries(Object.entries(paths).filter(([path]) => !unchanged.has(path)));
  return { base: withPaths(base, changed(basePaths)), head: withPaths(head, changed(headPaths)) };
}

/** Every difference api-smart-diff finds between two prepared contracts under `paths`, annotations (descriptions, examples) left out. */
export function libraryDiffs(base: JsonObject, head: JsonObject): Diff[] {
  const compared = withoutUnchangedPaths(base, head);
  return apiCompare(compared.base, compared.head).diffs.filter((diff) => diff.type !== 'annotation');
}
