/**
 * Whether a caller's JSON Schema may be sent with `strict: true` under OpenAI's Structured Outputs
 * rules (https://platform.openai.com/docs/guides/structured-outputs#supported-schemas): a root
 * object, every object closed (`additionalProperties: false`) with all its properties required,
 * and only the supported keywords. Any other schema is sent with `strict: false`, unchanged: the
 * service validates the answer against it either way.
 */

type Schema = Record<string, unknown>;

const SUPPORTED_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);
const SUPPORTED_FORMATS = new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid']);
const SUPPORTED_KEYWORDS = new Set([
  'type', 'properties', 'required', 'additionalProperties', 'items', 'enum', 'anyOf', '$defs', '$ref', 'description', 'title',
  'pattern', 'format', 'multipleOf', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minItems', 'maxItems',
]);
/** OpenAI's limits on one strict schema. */
const MAX_PROPERTIES = 5000;
const MAX_NESTING = 10;

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function typesOf(schema: Schema): string[] {
  return Array.isArray(schema.type) ? schema.type.map(String) : typeof schema.type === 'string' ? [schema.type] : [];
}

/** Walks every subschema; `depth` counts the objects a property is nested in. False at the first thing strict mode does not accept. */
function strictNode(schema: unknown, depth: number, counter: { properties: number }): boolean {
  if (!isSchema(schema)) return false;
  if (!Object.keys(schema).every((keyword) => SUPPORTED_KEYWORDS.has(keyword))) return false;
  if (typeof schema.$ref === 'string') return schema.$ref.startsWith('#') && Object.keys(schema).every((keyword) => ['$ref', 'description', 'title'].includes(keyword));
  if (schema.format !== undefined && !SUPPORTED_FORMATS.has(String(schema.format))) return false;
  const types = typesOf(schema);
  if (types.includes('object') && depth > MAX_NESTING) return false;
  if (!types.every((type) => SUPPORTED_TYPES.has(type))) return false;
  if (schema.anyOf !== undefined) {
    if (!Array.isArray(schema.anyOf) || !schema.anyOf.every((branch) => strictNode(branch, depth, counter))) return false;
  } else if (types.length === 0 && schema.enum === undefined) {
    return false;
  }
  if (schema.$defs !== undefined && (!isSchema(schema.$defs) || !Object.values(schema.$defs).every((definition) => strictNode(definition, depth, counter)))) return false;
  if (types.includes('object') || schema.properties !== undefined) {
    const properties = isSchema(schema.properties) ? schema.properties : {};
    const required = Array.isArray(schema.required) ? schema.required : [];
    counter.properties += Object.keys(properties).length;
    if (schema.additionalProperties !== false || counter.properties > MAX_PROPERTIES) return false;
    if (!Object.keys(properties).every((name) => required.includes(name)) || required.length !== Object.keys(properties).length) return false;
    if (!Object.values(properties).every((property) => strictNode(property, depth + 1, counter))) return false;
  }
  if (types.includes('array') || schema.items !== undefined) {
    if (!strictNode(schema.items, depth, counter)) return false;
  }
  return true;
}

/** True when `schema` can be sent with `strict: true`: its root is an object and strict mode supports all of it. */
export function strictModeAllows(schema: Schema): boolean {
  return schema.type === 'object' && schema.anyOf === undefined && strictNode(schema, 1, { properties: 0 });
}
