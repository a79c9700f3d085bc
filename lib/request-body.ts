/** The message for a call without the JSON body its operation requires, shared by the mock and the server. */
import type { OperationRow } from '../generated/operations.ts';
import { contractDocument, resolveReference } from './contract-document.ts';

interface BodySchema {
  required?: string[];
  properties?: Record<string, unknown>;
}

/** The fields of the operation's JSON body, the required ones first and marked: `url (required), limit, max_depth`. */
function fieldsOf(operation: OperationRow): string {
  const pathItem = (contractDocument.paths as Record<string, Record<string, { requestBody?: unknown }>>)[operation.path]!;
  const requestBody = resolveReference<{ content: Record<string, { schema: unknown }> }>(pathItem[operation.method.toLowerCase()]!.requestBody);
  const schema = resolveReference<BodySchema>(requestBody.content['application/json']!.schema);
  const required = schema.required ?? [];
  const optional = Object.keys(schema.properties ?? {}).filter((name) => !required.includes(name));
  return [...required.map((name) => `${name} (required)`), ...optional].join(', ');
}

/**
 * `Invalid parameters: a JSON body is required: crawlWebsite takes an object with url (required),
 * limit, max_depth, ….` for a call that sent no body (or only whitespace).
 */
export function missingBodyMessage(operation: OperationRow): string {
  return `Invalid parameters: a JSON body is required: ${operation.operationId} takes an object with ${fieldsOf(operation)}.`;
}
