import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { extractSchemaNotJsonSchema } from '../../../lib/error-messages.ts';
import { callerSchema } from './answer-schema.ts';

/** What a fresh Ajv, checking the schema against the meta-schema as it compiles it, says of `schema`. */
function freshAjvRefusal(schema: object): string {
  try {
    new Ajv2020({ strict: false, allErrors: true, logger: false }).compile(schema);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('a fresh Ajv compiled it');
}

describe("a caller's schema checked by the one meta-schema checker, then compiled on a fresh Ajv", () => {
  const refused: [string, object][] = [
    ['an unknown type', { type: 'object', properties: { a: { type: 'colour' } } }],
    ['two mistakes at once', { type: 'object', required: 'a', properties: { b: { minLength: -1 } } }],
    ['a wrong keyword value deep in $defs', { type: 'object', $defs: { x: { enum: 'not a list' } } }],
  ];
  it.each(refused)('refuses %s in the words a fresh Ajv uses', (_name, schema) => {
    expect(() => callerSchema(JSON.stringify(schema))).toThrow(extractSchemaNotJsonSchema(freshAjvRefusal(schema)));
  });

  it('compiles a valid schema, whose $id is forgotten with the call: the same $id is accepted again', () => {
    const schema = JSON.stringify({ $id: 'https://caller.example/answer', type: 'object', properties: { price: { type: 'number' } }, required: ['price'] });
    const first = callerSchema(schema);
    expect(first.validate({ price: 3 })).toBe(true);
    expect(first.validate({ price: 'three' })).toBe(false);
    expect(callerSchema(schema).validate({ price: 4 })).toBe(true);
  });
});
