/** The message for a call without the JSON body its operation requires, shared by the mock and the server. */
import type { OperationRow } from '../generated/operations.ts';
import { contractDocument, resolveRef } from './contract-document.ts';
import { invalidParameters, missingBody } from './error-messages.ts';

interface BodySchema {
  required?: string[];
  properties?: Record<string, unknown>;
}

/** The fields of the operation's JSON body, the required ones first: `url (required), limit, max_depth`. */
function fieldsOf(operation: OperationRow): { required: string[]; optional: string[] } {
  const pathItem = (contractDocument.paths as Record<string, Record<string, { requestBody?: unknown }>>)[operation.path]!;
  const requestBody = resolveRef<{ content: Record<string, { schema: unknown }> }>(pathItem[operation.method.toLowerCase()]!.requestBody);
  const schema = resolveRef<BodySchema>(requestBody.content['application/json']!.schema);
  const required = schema.required ?? [];
  return { required, optional: Object.keys(schema.properties ?? {}).filter((name) => !required.includes(name)) };
}

/**
 * `Invalid parameters: a JSON body is required: crawlWebsite takes an object with url (required),
 * limit, max_depth, ….` for a call that sent no body (or only whitespace).
 */
export function missingBodyMessage(operation: OperationRow): string {
  const { required, optional } = fieldsOf(operation);
  return invalidParameters([missingBody(operation.operationId, required, optional)]);
}
