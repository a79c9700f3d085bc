/**
 * Development and test self-check: the headers of every answer against those the contract declares
 * for the operation and status (answer-validator.ts checks the body).
 */
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { contractDocument } from '../../lib/contract-document.ts';
import type { OperationRow } from '../../generated/operations.ts';
import { contractValidator } from './contract-ajv.ts';

type Json = Record<string, any>;


function resolve(node: Json): Json {
  let current = node;
  while (typeof current.$ref === 'string') {
    current = (current.$ref as string).slice(2).split('/').reduce<Json>((parent, part) => parent[part.replace(/~1/g, '/').replace(/~0/g, '~')], contractDocument);
  }
  return current;
}

function validatorAt(pointer: string): ValidateFunction {
  return contractValidator(pointer, () => ({ $ref: `contract#${pointer}` }));
}

/** Every way `headers` depart from what the contract declares for this answer; empty when they conform. */
export function headerProblems(operation: OperationRow | undefined, status: number, headers: Record<string, string>): string[] {
  const envelopeOnly = { 'X-Request-Id': '#/components/headers/XRequestId', 'X-Credits-Used': '#/components/headers/XCreditsUsed', 'X-Credits-Remaining': '#/components/headers/XCreditsRemaining', 'X-Cache': '#/components/headers/XCache' };
  let declared: Record<string, Json>;
  if (operation && status !== 405) {
    const pathItem = (contractDocument.paths as Json)[operation.path];
    const response = pathItem[operation.method.toLowerCase()].responses[String(status)];
    if (!response) return [`status ${status} is not declared for ${operation.operationId}`];
    declared = resolve(response).headers ?? {};
  } else {
    declared = Object.fromEntries(Object.entries(envelopeOnly).map(([name, ref]) => [name, { $ref: ref }]));
  }
  const problems: string[] = [];
  const lowerCased = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
  for (const [name, header] of Object.entries(declared)) {
    const value = lowerCased[name.toLowerCase()];
    const resolved = resolve(header);
    if (value === undefined) {
      if (resolved.required) problems.push(`header ${name} is missing`);
      continue;
    }
    const pointer = typeof header.$ref === 'string' ? `${(header.$ref as string).slice(1)}/schema` : undefined;
    if (!pointer) continue;
    const schema = resolve(resolved.schema);
    const typed = schema.type === 'integer' && /^-?\d+$/.test(value) ? Number(value) : value;
    const validate = validatorAt(pointer);
    if (!validate(typed)) problems.push(`header ${name} "${value}" ${validate.errors?.[0]?.message ?? 'is not valid'}`);
  }
  return problems;
}
