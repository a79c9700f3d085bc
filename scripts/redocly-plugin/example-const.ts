/**
 * Every example of an operation's request and responses keeps the values its schema fixes with
 * `const` (the `platform` and `endpoint` of each success envelope). Redocly's own example check
 * says only "must be equal to constant"; this rule names the example, the property and the value
 * expected.
 */
import { isDeepStrictEqual } from 'node:util';
import { everyOperation, type VisitedOperation } from './operations.ts';
import { isObject, type JsonObject, type Location, type Rule } from './types.ts';

interface Mismatch {
  readonly path: readonly (string | number)[];
  readonly expected: unknown;
  readonly actual: unknown;
}

type Resolve = VisitedOperation['resolve'];

/** The places where `value` differs from a `const` of `schema` (followed through `$ref`, `allOf`, `properties` and `items`). */
function constMismatches(value: unknown, schema: unknown, at: Location, resolve: Resolve, path: (string | number)[] = []): Mismatch[] {
  const resolved = resolve(schema, at);
  if (!resolved || !isObject(resolved.node)) return [];
  const { node, location } = resolved;
  const found: Mismatch[] = [];
  if ('const' in node && !isDeepStrictEqual(value, node.const)) found.push({ path, expected: node.const, actual: value });
  (Array.isArray(node.allOf) ? node.allOf : []).forEach((part, index) => {
    found.push(...constMismatches(value, part, location.child(['allOf', index]), resolve, path));
  });
  if (isObject(value) && isObject(node.properties)) {
    for (const [property, propertySchema] of Object.entries(node.properties)) {
      if (property in value) {
        found.push(...constMismatches(value[property], propertySchema, location.child(['properties', property]), resolve, [...path, property]));
      }
    }
  }
  if (Array.isArray(value) && node.items !== undefined) {
    value.forEach((item, index) => found.push(...constMismatches(item, node.items, location.child('items'), resolve, [...path, index])));
  }
  return found;
}

/** The named examples (and the single `example`) of a media type, each with the location of its value. */
function examplesOf(mediaType: JsonObject, at: Location, resolve: Resolve): { name: string; value: unknown; location: Location }[] {
  const examples: { name: string; value: unknown; location: Location }[] = [];
  if ('example' in mediaType) examples.push({ name: 'example', value: mediaType.example, location: at.child('example') });
  for (const [name, reference] of Object.entries(isObject(mediaType.examples) ? mediaType.examples : {})) {
    const example = resolve(reference, at.child(['examples', name]));
    if (example && isObject(example.node) && 'value' in example.node) {
      examples.push({ name, value: example.node.value, location: example.location.child('value') });
    }
  }
  return examples;
}

function describedPath(path: readonly (string | number)[]): string {
  return path.length === 0 ? 'its value' : path.map((part) => (typeof part === 'number' ? `[${part}]` : `.${part}`)).join('').replace(/^\./, '');
}

export const exampleConst: Rule = () => {
  const reported = new Set<string>();
  return everyOperation(({ operation, name, location, report, resolve }) => {
    const bodies: { label: string; reference: unknown; at: Location }[] = [];
    if (operation.requestBody !== undefined) bodies.push({ label: 'request body', reference: operation.requestBody, at: location.child('requestBody') });
    for (const [status, reference] of Object.entries(isObject(operation.responses) ? operation.responses : {})) {
      bodies.push({ label: `response ${status}`, reference, at: location.child(['responses', status]) });
    }
    for (const { label, reference, at } of bodies) {
      const body = resolve(reference, at);
      if (!body || !isObject(body.node) || !isObject(body.node.content)) continue;
      for (const [mediaTypeName, mediaType] of Object.entries(body.node.content)) {
        if (!isObject(mediaType) || mediaType.schema === undefined) continue;
        const mediaTypeLocation = body.location.child(['content', mediaTypeName]);
        for (const example of examplesOf(mediaType, mediaTypeLocation, resolve)) {
          const where = `${example.location.source.absoluteRef}${example.location.pointer}`;
          if (reported.has(where)) continue;
          reported.add(where);
          const mismatches = constMismatches(example.value, mediaType.schema, mediaTypeLocation.child('schema'), resolve);
          const unique = new Map(mismatches.map((mismatch) => [JSON.stringify(mismatch.path), mismatch]));
          for (const { path, expected, actual } of unique.values()) {
            report({
              message:
                `Example ${example.name} of the ${label} of operation ${name} has ${describedPath(path)} ${JSON.stringify(actual)}; ` +
                `its schema fixes it with const ${JSON.stringify(expected)}.`,
              location: example.location.child([...path]),
            });
          }
        }
      }
    }
  });
};
