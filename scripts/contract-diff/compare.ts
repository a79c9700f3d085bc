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

/** Every difference api-smart-diff finds between two prepared contracts, annotations (descriptions, examples) left out. */
export function libraryDiffs(base: JsonObject, head: JsonObject): Diff[] {
  return apiCompare(base, head).diffs.filter((diff) => diff.type !== 'annotation');
}
