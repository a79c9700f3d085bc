/** A made-up value that follows a caller's JSON Schema: what the sandbox "extracts" with `schema`. */
import { round, type SeededRandom } from './seeded.ts';

type Schema = Record<string, unknown>;

const MAX_DEPTH = 8;

/** A value valid against the common keywords of `schema` (type, properties, items, enum, const, bounds, formats). */
export function sampleFromSchema(random: SeededRandom, schema: Schema): unknown {
  return sample(random, schema, schema, '', 0);
}

function sample(random: SeededRandom, schema: unknown, root: Schema, name: string, depth: number): unknown {
  if (schema === true || schema === undefined) return random.sentence(2, 5);
  if (!isSchema(schema) || depth > MAX_DEPTH) return null;
  if (typeof schema.$ref === 'string') return sample(random, resolveLocalRef(root, schema.$ref), root, name, depth + 1);
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) {
    const nonNull = schema.enum.filter((value) => value !== null);
    return random.pick(nonNull.length > 0 ? nonNull : schema.enum);
  }
  const alternatives = (schema.anyOf ?? schema.oneOf ?? schema.allOf) as unknown;
  if (Array.isArray(alternatives) && alternatives.length > 0) {
    const nonNull = alternatives.filter((alternative) => !(isSchema(alternative) && alternative.type === 'null'));
    return sample(random, nonNull[0] ?? alternatives[0], root, name, depth + 1);
  }
  switch (chooseType(schema)) {
    case 'object':
      return sampleObject(random, schema, root, depth);
    case 'array':
      return sampleArray(random, schema, root, name, depth);
    case 'string':
      return sampleString(random, schema, name);
    case 'integer':
      return Math.round(sampleNumber(random, schema, 0));
    case 'number':
      return sampleNumber(random, schema, 2);
    case 'boolean':
      return random.chance(0.5);
    default:
      return null;
  }
}

function chooseType(schema: Schema): string {
  const types = Array.isArray(schema.type) ? (schema.type as unknown[]).map(String) : typeof schema.type === 'string' ? [schema.type] : [];
  const concrete = types.filter((type) => type !== 'null');
  if (concrete[0] !== undefined) return concrete[0];
  if (types.includes('null')) return 'null';
  if (isSchema(schema.properties)) return 'object';
  if (schema.items !== undefined) return 'array';
  return 'string';
}

function sampleObject(random: SeededRandom, schema: Schema, root: Schema, depth: number): Record<string, unknown> {
  const properties = isSchema(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required.map(String) : [];
  const object: Record<string, unknown> = {};
  for (const [property, propertySchema] of Object.entries(properties)) {
    object[property] = sample(random, propertySchema, root, property, depth + 1);
  }
  for (const property of required) if (!(property in object)) object[property] = random.sentence(2, 5);
  return object;
}

function sampleArray(random: SeededRandom, schema: Schema, root: Schema, name: string, depth: number): unknown[] {
  const min = typeof schema.minItems === 'number' ? schema.minItems : 1;
  const max = typeof schema.maxItems === 'number' ? schema.maxItems : min + 2;
  const count = random.int(min, Math.max(min, Math.min(max, min + 2)));
  return Array.from({ length: count }, () => sample(random, schema.items, root, name, depth + 1));
}

function sampleString(random: SeededRandom, schema: Schema, name: string): string {
  const format = typeof schema.format === 'string' ? schema.format : '';
  const key = name.toLowerCase();
  let text: string;
  if (format === 'date-time' || key.endsWith('_at')) text = random.dateTime();
  else if (format === 'date' || key.endsWith('date')) text = random.dateTime().slice(0, 10);
  else if (format === 'uri' || format === 'url' || key.endsWith('url')) text = `https://example.com/${random.slug(2)}`;
  else if (format === 'email' || key.includes('email')) text = `${random.slug(1)}@example.com`;
  else if (key === 'name' || key.endsWith('_name') || key === 'title') text = random.title(1, 3);
  else text = random.sentence(3, 10);
  const minLength = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const maxLength = typeof schema.maxLength === 'number' ? schema.maxLength : Infinity;
  return text.padEnd(minLength, 'x').slice(0, maxLength);
}

function sampleNumber(random: SeededRandom, schema: Schema, decimals: number): number {
  const number = (keyword: string): number | undefined => (typeof schema[keyword] === 'number' ? (schema[keyword] as number) : undefined);
  const step = decimals === 0 ? 1 : 0.01;
  const exclusiveMin = number('exclusiveMinimum');
  const exclusiveMax = number('exclusiveMaximum');
  const min = number('minimum') ?? (exclusiveMin === undefined ? undefined : exclusiveMin + step) ?? 0;
  const max = number('maximum') ?? (exclusiveMax === undefined ? undefined : exclusiveMax - step) ?? Math.max(min, 0) + 1000;
  const value = random.float(min, Math.max(min, max), decimals);
  return round(Math.min(Math.max(value, min), max), decimals);
}

function resolveLocalRef(root: Schema, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  return ref
    .slice(1)
    .split('/')
    .filter(Boolean)
    .map((part) => decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>((node, key) => (isSchema(node) ? node[key] : undefined), root);
}

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
