/**
 * Every named example of the contract is valid against its schema, checked by the suite's own Ajv
 * validator (independent of Redocly's linter), and every response of every operation has one.
 */
import { describe, expect, it } from 'vitest';
import { contract, contractOperations, describeErrors, HTTP_METHODS, resolve, validatorAt } from '../contract.ts';

type Json = Record<string, unknown>;

interface ExampleCase {
  name: string;
  schemaPointer: string;
  value: unknown;
}

function escape(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** The pointer of a node that may be a `$ref`: the target's pointer, else its own. */
function located(node: Json, ownPointer: string): { node: Json; pointer: string } {
  return typeof node.$ref === 'string' ? { node: resolve(node), pointer: (node.$ref as string).slice(1) } : { node, pointer: ownPointer };
}

function mediaTypeExamples(label: string, content: Json | undefined, pointer: string): ExampleCase[] {
  const cases: ExampleCase[] = [];
  for (const [mediaType, media] of Object.entries(content ?? {})) {
    const mediaPointer = `${pointer}/content/${escape(mediaType)}`;
    for (const [exampleName, example] of Object.entries(((media as Json).examples ?? {}) as Record<string, Json>)) {
      cases.push({ name: `${label} example "${exampleName}"`, schemaPointer: `${mediaPointer}/schema`, value: resolve(example).value });
    }
  }
  return cases;
}

function collectExamples(): ExampleCase[] {
  const cases: ExampleCase[] = [];
  for (const [section, items] of [['paths', contract.paths], ['webhooks', contract.webhooks]] as const) {
    for (const [key, item] of Object.entries((items ?? {}) as Record<string, Json>)) {
      for (const method of HTTP_METHODS) {
        const operation = item[method] as Json | undefined;
        if (!operation) continue;
        const operationPointer = `/${section}/${escape(key)}/${method}`;
        const label = `${method.toUpperCase()} ${key}`;
        if (operation.requestBody) {
          const body = located(operation.requestBody as Json, `${operationPointer}/requestBody`);
          cases.push(...mediaTypeExamples(`${label} request body`, body.node.content as Json, body.pointer));
        }
        for (const [status, response] of Object.entries(operation.responses as Record<string, Json>)) {
          const located_ = located(response, `${operationPointer}/responses/${status}`);
          cases.push(...mediaTypeExamples(`${label} ${status}`, located_.node.content as Json, located_.pointer));
        }
      }
    }
  }
  return cases;
}

const examples = collectExamples();

describe('examples of the contract', () => {
  it('finds examples to check', () => {
    expect(examples.length).toBeGreaterThan(100);
  });

  it.each(examples)('$name is valid against its schema', ({ schemaPointer, value }) => {
    const validate = validatorAt(schemaPointer);
    const valid = validate(value);
    expect(describeErrors(validate.errors), schemaPointer).toEqual([]);
    expect(valid).toBe(true);
  });

  it.each(contractOperations())('$operationId has a named example on every response', (operation) => {
    for (const [status, response] of Object.entries(operation.object.responses as Record<string, Json>)) {
      const content = (resolve(response).content ?? {}) as Record<string, Json>;
      const named = Object.values(content).flatMap((media) => Object.keys((media.examples ?? {}) as Json));
      expect(named.length, `${operation.operationId} ${status}`).toBeGreaterThan(0);
    }
  });

  it.each(contractOperations())('$operationId success examples draw its x-credit-cost', (operation) => {
    const content = resolve((operation.object.responses as Json)['200']).content as Record<string, Json>;
    const examples = Object.values((content['application/json']!.examples ?? {}) as Record<string, Json>);
    expect(examples.length).toBeGreaterThan(0);
    for (const example of examples) {
      expect((resolve(example).value as Json).credits_used).toBe(operation.object['x-credit-cost']);
    }
  });
});
