/**
 * Empty values Prism lets through: its parameter validation drops a value that is the empty string
 * (lodash `pickBy`), so `cursor=` or an empty `Idempotency-Key` header would pass. The server
 * validates them as given; so does this check, against the parameter's schema, as text.
 */
import { withContractFormats } from '../lib/contract-formats.ts';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import type { OperationRow } from '../generated/operations.ts';
import { resolveRef } from '../lib/contract-document.ts';
import { declaredParameters } from './declared-answers.ts';

const ajv = withContractFormats(new Ajv2020({ strict: false, allErrors: true }));
const validators = new WeakMap<object, ValidateFunction>();

function validatorOf(schema: Record<string, unknown>): ValidateFunction {
  let validate = validators.get(schema);
  if (!validate) {
    validate = ajv.compile(resolveRef(schema));
    validators.set(schema, validate);
  }
  return validate;
}

/** Where a parameter is named in messages: `query.cursor`, `headers.idempotency-key` (as the server names them). */
function locationOf(parameter: { name: string; in: string }): string {
  return parameter.in === 'header' ? `headers.${parameter.name.toLowerCase()}` : `${parameter.in}.${parameter.name}`;
}

export interface EmptyValues {
  /** One clause per broken rule, e.g. `query.cursor must NOT have fewer than 1 characters`. */
  problems: string[];
  /** Where the empty values were given, so Prism's "is required" for them can be dropped. */
  locations: string[];
}

/** The declared query parameters and headers given as the empty string, checked against their schemas. */
export function emptyValueProblems(operation: OperationRow, query: URLSearchParams, headers: Record<string, string>): EmptyValues {
  const result: EmptyValues = { problems: [], locations: [] };
  // One pass over the query, not one search of it per declared parameter.
  const emptyInQuery = new Set<string>();
  for (const [name, value] of query) if (value === '') emptyInQuery.add(name);
  for (const parameter of declaredParameters(operation)) {
    const value = parameter.in === 'query' ? (emptyInQuery.has(parameter.name) ? '' : undefined)
      : parameter.in === 'header' ? headers[parameter.name.toLowerCase()] : undefined;
    if (value !== '') continue;
    const location = locationOf(parameter);
    result.locations.push(location);
    const validate = validatorOf(parameter.schema);
    if (!validate('')) result.problems.push(...(validate.errors ?? []).map((error) => `${location} ${error.message ?? 'is not valid'}`));
  }
  return result;
}
