/** Which caller schemas go with `strict: true`, under OpenAI's Structured Outputs rules for supported schemas. */
import { describe, expect, it } from 'vitest';
import { strictModeAllows } from './strict-schema.ts';

const closed = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ type: 'object', properties, required: Object.keys(properties), additionalProperties: false, ...extra });
const nested = (depth: number): Record<string, unknown> => (depth === 1 ? closed({ leaf: { type: 'string' } }) : closed({ child: nested(depth - 1) }));

describe('strictModeAllows', () => {
  const cases = [
    { name: 'a closed object, every property required', schema: closed({ name: { type: 'string' }, price: { type: ['number', 'null'] } }), strict: true },
    { name: 'nested objects and arrays, all closed', schema: closed({ plans: { type: 'array', items: closed({ name: { type: 'string', description: 'Plan name' } }), minItems: 1 } }), strict: true },
    { name: 'enum, anyOf, supported formats and numeric bounds', schema: closed({ period: { enum: ['month', 'year', null] }, at: { type: 'string', format: 'date-time' }, n: { type: 'integer', minimum: 0, maximum: 9 }, v: { anyOf: [{ type: 'string' }, { type: 'null' }] } }), strict: true },
    { name: '$defs and a local $ref', schema: closed({ plan: { $ref: '#/$defs/plan' } }, { $defs: { plan: closed({ name: { type: 'string' } }) } }), strict: true },
    { name: 'ten levels of nesting', schema: nested(10), strict: true },
    { name: 'eleven levels of nesting', schema: nested(11), strict: false },
    { name: 'the contract example (objects not closed)', schema: { type: 'object', properties: { plans: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } } }, required: ['plans'] }, strict: false },
    { name: 'an optional property', schema: { ...closed({ a: { type: 'string' }, b: { type: 'string' } }), required: ['a'] }, strict: false },
    { name: 'additionalProperties true', schema: { ...closed({ a: { type: 'string' } }), additionalProperties: true }, strict: false },
    { name: 'minLength (unsupported)', schema: closed({ a: { type: 'string', minLength: 1 } }), strict: false },
    { name: 'format uri (unsupported)', schema: closed({ a: { type: 'string', format: 'uri' } }), strict: false },
    { name: 'allOf (unsupported)', schema: closed({ a: { allOf: [{ type: 'string' }] } }), strict: false },
    { name: 'a remote $ref', schema: closed({ a: { $ref: 'https://example.com/schema.json' } }), strict: false },
    { name: 'a property without a type', schema: closed({ a: {} }), strict: false },
    { name: 'a root anyOf', schema: { type: 'object', anyOf: [closed({ a: { type: 'string' } })] }, strict: false },
  ];
  for (const { name, schema, strict } of cases) {
    it(`${name}: strict ${strict}`, () => expect(strictModeAllows(schema)).toBe(strict));
  }
});
