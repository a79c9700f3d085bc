/**
 * fast-check arbitraries of values valid against a JSON Schema of the contract's requests: types,
 * enums, patterns, formats (`uri`, `date`), lengths in code points, bounds, arrays, objects with
 * their required and optional properties, `anyOf`. Free text is drawn from any code point and
 * from unusual ones (NUL, right-to-left marks, emoji, combining marks, line separators), up to the
 * maximum length; `prose` gives the values a property's description restricts beyond its schema.
 */
import fc from 'fast-check';
import type { Schema } from './operations.ts';

/** Arbitraries for properties or parameters, by name, that replace the one their schema gives. */
export type ProseValues = Readonly<Record<string, fc.Arbitrary<unknown>>>;

/** Single code points a careless reader trips on. */
export const UNUSUAL_CODE_POINTS = [
  '\u0000', '\u202E', '\u200F', '\u2066', '\uFEFF', '\u200B', '\u0301', '\u2028', '\n', '\t', ' ', '"', "'", '\\', '%', '&', '=', '+', '#', '?', '/', '<', '>',
  '😀', '🧪', '𝕏', 'ß', 'İ', 'ﷺ', 'ع', '中', '\u00A0',
] as const;

/** Length as JSON Schema counts it: in code points. */
export function codePointLength(text: string): number {
  return [...text].length;
}

/** Text of `min` to `max` code points: mostly short, sometimes exactly `max` long. */
export function freeText(min: number, max: number): fc.Arbitrary<string> {
  const shortMax = Math.max(min, Math.min(max, 24));
  return fc.oneof(
    { weight: 4, arbitrary: fc.string({ unit: 'binary', minLength: min, maxLength: shortMax }) },
    { weight: 3, arbitrary: fc.array(fc.constantFrom(...UNUSUAL_CODE_POINTS), { minLength: min, maxLength: shortMax }).map((units) => units.join('')) },
    { weight: 1, arbitrary: fc.constantFrom(...UNUSUAL_CODE_POINTS).map((unit) => unit.repeat(max)) },
  );
}

const HOSTS = ['example.com', 'www.example.org', 'docs.example.net', 'shop.example.co.uk', 'blog.example.io'];

/** An absolute `http`/`https` URL of a public host, its path and query made of URL-safe characters. */
export const publicUrl: fc.Arbitrary<string> = fc.oneof(
  fc.tuple(fc.constantFrom('http', 'https'), fc.constantFrom(...HOSTS), fc.webPath(), fc.option(fc.webQueryParameters(), { nil: undefined }))
    .map(([scheme, host, path, query]) => `${scheme}://${host}${path}${query ? `?${query}` : ''}`),
  fc.webUrl({ validSchemes: ['http', 'https'], withQueryParameters: true, withFragments: true }).filter((url) => !/\.test(?:[:/]|$)/i.test(new URL(url).hostname)),
);

/** A calendar date `YYYY-MM-DD`. */
export const isoDate: fc.Arbitrary<string> = fc.date({ min: new Date('1990-01-01T00:00:00Z'), max: new Date('2035-12-31T00:00:00Z'), noInvalidDate: true })
  .map((date) => date.toISOString().slice(0, 10));

function stringArbitrary(schema: Schema): fc.Arbitrary<string> {
  const min = schema.minLength ?? 0;
  const max = schema.maxLength ?? 256;
  const fits = (text: string) => codePointLength(text) >= min && codePointLength(text) <= max;
  if (schema.format === 'uri') return publicUrl.filter(fits);
  if (schema.format === 'date') return isoDate;
  if (schema.format === 'date-time') return fc.date({ min: new Date('1990-01-01T00:00:00Z'), max: new Date('2035-12-31T00:00:00Z'), noInvalidDate: true }).map((date) => date.toISOString());
  if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern)).filter(fits);
  return freeText(min, max);
}

/** Values valid against `schema`; `name` is the property or parameter it belongs to (for `prose`). */
export function schemaArbitrary(schema: Schema, prose: ProseValues = {}, name?: string): fc.Arbitrary<unknown> {
  if (name !== undefined && prose[name]) return prose[name]!;
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  const branches = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (branches) return fc.oneof(...branches.map((branch) => schemaArbitrary(branch, prose)));
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      return stringArbitrary(schema);
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -(2 ** 31), max: schema.maximum ?? 2 ** 31 });
    case 'number':
      return fc.double({ min: schema.minimum ?? -1e9, max: schema.maximum ?? 1e9, noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(schemaArbitrary(schema.items ?? {}, prose), { minLength: schema.minItems ?? 0, maxLength: Math.min(schema.maxItems ?? 4, Math.max(schema.minItems ?? 0, 4)) });
    case 'object':
      return objectArbitrary(schema, prose);
    default:
      return fc.jsonValue();
  }
}

function objectArbitrary(schema: Schema, prose: ProseValues): fc.Arbitrary<Record<string, unknown>> {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const model = Object.fromEntries(Object.entries(properties).map(([property, propertySchema]) => [property, schemaArbitrary(propertySchema, prose, property)]));
  return fc.record(model, { requiredKeys: (schema.required ?? []) as string[] }) as fc.Arbitrary<Record<string, unknown>>;
}
