/**
 * The contract expresses the interface specification table by table: every operation, with the
 * specification's parameter names, types, required flags and enums, request bodies and credit costs.
 * The specification is kept beside this test (interface-specification.md, a copy of shared/).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { contractOperations, resolve, type ContractOperation } from '../contract.ts';

type Json = Record<string, unknown>;

interface SpecField {
  name: string;
  type: 'string' | 'integer' | 'boolean' | 'array of string';
  required: boolean;
  enumValues?: string[];
}

interface SpecOperation {
  method: string;
  path: string;
  creditCost?: number;
  query: SpecField[];
  pathParams: SpecField[];
  body: SpecField[];
}

const specText = readFileSync(new URL('./interface-specification.md', import.meta.url), 'utf8');

/** Reads the operations of the "Endpoints" part: headings, parameter and body tables. */
function parseSpecOperations(text: string): SpecOperation[] {
  const endpoints = text.slice(text.indexOf('## Endpoints'), text.indexOf('### Gaps across endpoints'));
  const sections = endpoints.split(/^### /m).slice(1);
  return sections.map((section) => {
    const heading = /^(GET|POST|PATCH|DELETE) (\S+)(?: \(credit cost (\d+))?/.exec(section);
    if (!heading) throw new Error(`unreadable endpoint heading: ${section.slice(0, 60)}`);
    const operation: SpecOperation = {
      method: heading[1]!.toLowerCase(),
      path: heading[2]!,
      creditCost: heading[3] === undefined ? undefined : Number(heading[3]),
      query: [],
      pathParams: [],
      body: [],
    };
    const isBody = /Request body \(required\), object:/.test(section);
    for (const row of section.matchAll(/^\| (\w+) \| ([a-z ]+) \| (.*) \|$/gm)) {
      const [, name, type, notes] = row;
      if (name === 'Field' || name === 'Query') continue;
      const enumMatch = /^([a-z0-9-]+(?:, [a-z0-9-]+)+)$/.exec(notes!.trim());
      const field: SpecField = {
        name: name!,
        type: type!.trim() as SpecField['type'],
        required: /^required/.test(notes!.trim()),
        ...(enumMatch ? { enumValues: enumMatch[1]!.split(', ') } : {}),
      };
      (isBody ? operation.body : operation.query).push(field);
    }
    return operation;
  });
}

/** What the specification says in prose rather than in tables. */
const PROSE: Record<string, Partial<SpecOperation>> = {
  'get /web/jobs': { query: [{ name: 'limit', type: 'integer', required: false }, { name: 'cursor', type: 'string', required: false }] },
  'get /web/jobs/{job_id}': { pathParams: [{ name: 'job_id', type: 'string', required: true }] },
  'delete /web/jobs/{job_id}': { pathParams: [{ name: 'job_id', type: 'string', required: true }] },
  'post /web/agent': {
    body: [
      { name: 'url', type: 'string', required: true },
      { name: 'prompt', type: 'string', required: true },
      { name: 'model', type: 'string', required: false, enumValues: ['spark-1-mini', 'spark-1-pro'] },
    ],
  },
  'post /web/monitors': {
    body: [
      { name: 'url', type: 'string', required: true },
      { name: 'name', type: 'string', required: false },
      { name: 'mode', type: 'string', required: false, enumValues: ['scrape', 'search'] },
      { name: 'cadence_minutes', type: 'integer', required: false },
      { name: 'schedule_text', type: 'string', required: false },
      { name: 'schedule_cron', type: 'string', required: false },
      { name: 'timezone', type: 'string', required: false },
      { name: 'webhook_url', type: 'string', required: false },
      { name: 'query', type: 'string', required: false },
      { name: 'goal', type: 'string', required: false },
      { name: 'retention_days', type: 'integer', required: false },
      { name: 'judge_enabled', type: 'boolean', required: false },
    ],
  },
  'get /web/monitors': { query: [{ name: 'cursor', type: 'string', required: false }, { name: 'limit', type: 'integer', required: false }] },
  'get /web/monitors/{monitor_id}': { pathParams: [{ name: 'monitor_id', type: 'string', required: true }] },
  'patch /web/monitors/{monitor_id}': {
    pathParams: [{ name: 'monitor_id', type: 'string', required: true }],
    body: [
      { name: 'status', type: 'string', required: false, enumValues: ['active', 'paused'] },
      { name: 'cadence_minutes', type: 'integer', required: false },
      { name: 'schedule_text', type: 'string', required: false },
      { name: 'schedule_cron', type: 'string', required: false },
      { name: 'timezone', type: 'string', required: false },
    ],
  },
  'delete /web/monitors/{monitor_id}': { pathParams: [{ name: 'monitor_id', type: 'string', required: true }] },
  'get /finance/history': { query: [{ name: 'interval', type: 'string', required: false, enumValues: ['1d', '5d', '1wk', '1mo', '3mo'] }] },
};

/** Credit costs the specification gives outside the headings (Limits part), and the project's decisions. */
const OTHER_COSTS: Record<string, number> = {
  'post /web/agent': 25,
  'get /web/jobs': 0,
  'get /web/jobs/{job_id}': 0,
  'delete /web/jobs/{job_id}': 0,
  'post /web/monitors': 0,
  'get /web/monitors': 0,
  'get /web/monitors/{monitor_id}': 0,
  'patch /web/monitors/{monitor_id}': 0,
  'delete /web/monitors/{monitor_id}': 0,
  'get /shortvideo/collection/videos': 1,
  'get /finance/history': 1,
  'get /microblog/post': 1,
  'get /socialnet/events': 1,
};

const specOperations = parseSpecOperations(specText).map((operation) => {
  const key = `${operation.method} ${operation.path}`;
  const prose = PROSE[key] ?? {};
  return {
    ...operation,
    query: [...operation.query, ...(prose.query ?? [])],
    pathParams: prose.pathParams ?? [],
    body: [...operation.body, ...(prose.body ?? [])],
    creditCost: operation.creditCost ?? OTHER_COSTS[key],
  };
});

const contractByKey = new Map(contractOperations().map((operation) => [`${operation.method} ${operation.path}`, operation]));

function schemaType(schema: Json): string {
  const resolved = resolve(schema);
  const types = ([] as unknown[]).concat(resolved.type ?? []).filter((type) => type !== 'null');
  if (types[0] === 'array') return `array of ${schemaType(resolved.items as Json)}`;
  return String(types[0]);
}

function parameters(operation: ContractOperation, location: 'query' | 'path'): Map<string, Json> {
  const list = ((operation.object.parameters as Json[]) ?? []).map((parameter) => resolve(parameter));
  return new Map(list.filter((parameter) => parameter.in === location).map((parameter) => [parameter.name as string, parameter]));
}

function bodySchema(operation: ContractOperation): Json | undefined {
  const body = operation.object.requestBody ? resolve(operation.object.requestBody) : undefined;
  const schema = (body?.content as Json | undefined)?.['application/json'] as Json | undefined;
  return schema ? resolve(schema.schema) : undefined;
}

describe('the contract expresses the interface specification', () => {
  it('reads all 19 operations from the specification', () => {
    expect(specOperations).toHaveLength(19);
  });

  it('has exactly the specification operations, no more and no fewer', () => {
    expect([...contractByKey.keys()].sort()).toEqual(specOperations.map((operation) => `${operation.method} ${operation.path}`).sort());
  });

  const operationOf = (spec: SpecOperation) => contractByKey.get(`${spec.method} ${spec.path}`)!;

  it.each(specOperations)('$method $path charges the specified credit cost', (spec) => {
    expect(operationOf(spec).object['x-credit-cost']).toBe(spec.creditCost);
  });

  const withParameters = specOperations.filter((spec) => spec.query.length + spec.pathParams.length > 0);
  it.each(withParameters)('$method $path declares each parameter with its type, required flag and enum', (spec) => {
    for (const [location, fields] of [['query', spec.query], ['path', spec.pathParams]] as const) {
      const declared = parameters(operationOf(spec), location);
      for (const field of fields) {
        const parameter = declared.get(field.name);
        expect(parameter, `${location} parameter ${field.name}`).toBeDefined();
        expect(schemaType(parameter!.schema as Json), `type of ${field.name}`).toBe(field.type);
        expect(Boolean(parameter!.required), `required flag of ${field.name}`).toBe(field.required);
        if (field.enumValues) expect(resolve(parameter!.schema).enum, `enum of ${field.name}`).toEqual(field.enumValues);
      }
    }
  });

  const withBodies = specOperations.filter((spec) => spec.body.length > 0);
  it.each(withBodies)('$method $path declares each body field with its type, required flag and enum', (spec) => {
    const schema = bodySchema(operationOf(spec));
    expect(schema, 'request body schema').toBeDefined();
    const properties = schema!.properties as Record<string, Json>;
    const required = (schema!.required as string[] | undefined) ?? [];
    for (const field of spec.body) {
      expect(properties[field.name], `body field ${field.name}`).toBeDefined();
      expect(schemaType(properties[field.name]!), `type of ${field.name}`).toBe(field.type);
      expect(required.includes(field.name), `required flag of ${field.name}`).toBe(field.required);
      if (field.enumValues) expect(resolve(properties[field.name]).enum, `enum of ${field.name}`).toEqual(field.enumValues);
    }
  });
});
