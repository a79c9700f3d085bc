/**
 * How large a request's head (request line and headers) may be: the largest any operation of the
 * contract allows in its worst-case encoding, plus room for ordinary headers. Node's default
 * (16 KiB) refused valid requests: `web/extract` alone allows a `schema` of 16,384 characters and a
 * `prompt` of 10,000, which percent-encode to several hundred kilobytes.
 */
import { contractDocument, resolveRef } from './contract-document.ts';

/** A 4-byte UTF-8 character with every byte percent-encoded: `😀` is `%F0%9F%98%80`. */
export const WORST_CASE_ENCODED_CHARACTER = 12;
/** The same character raw in a header value, where nothing is percent-encoded. */
const WORST_CASE_HEADER_CHARACTER = 4;
/** A string the contract bounds only by a pattern or a format (`^[A-Za-z]{2}$`, `date`) is counted at this length. */
const PATTERN_BOUNDED_CHARACTERS = 256;
/** The longest number text: `-1.2345678901234567e+308`. */
const NUMBER_CHARACTERS = 24;
/** Headers the contract does not declare: `x-api-key`, `Host`, `User-Agent`, `Content-Type`, `Prefer`, a proxy's `Forwarded`… */
export const ORDINARY_HEADERS_BYTES = 16 * 1024;

interface SchemaObject {
  type?: string | string[];
  maxLength?: number;
  enum?: unknown[];
}

interface ParameterObject {
  name: string;
  in: string;
  schema?: SchemaObject;
}

type Document = Record<string, unknown>;

/** The most characters a value of `schema` can have. */
function longestValue(schema: SchemaObject): number {
  if (typeof schema.maxLength === 'number') return schema.maxLength;
  if (Array.isArray(schema.enum)) return Math.max(...schema.enum.map((value) => String(value).length));
  const types = [schema.type ?? 'string'].flat();
  if (types.includes('string')) return PATTERN_BOUNDED_CHARACTERS;
  if (types.includes('number') || types.includes('integer')) return NUMBER_CHARACTERS;
  return 'false'.length;
}

interface BoundedParameter {
  name: string;
  in: string;
  longest: number;
}

interface Operation {
  method: string;
  path: string;
  parameters: BoundedParameter[];
}

function operationsOf(document: Document): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, unknown>>)) {
    const shared = (item.parameters as unknown[] | undefined) ?? [];
    for (const [method, operation] of Object.entries(item)) {
      if (typeof operation !== 'object' || operation === null || !('operationId' in operation)) continue;
      const own = (operation as { parameters?: unknown[] }).parameters ?? [];
      const parameters = [...shared, ...own].map((reference) => {
        const parameter = resolveRef<ParameterObject>(reference, document);
        return { name: parameter.name, in: parameter.in, longest: longestValue(resolveRef<SchemaObject>(parameter.schema ?? {}, document)) };
      });
      operations.push({ method: method.toUpperCase(), path, parameters });
    }
  }
  return operations;
}

/** `GET /v1/web/extract?url=…&schema=…&prompt=… HTTP/1.1` with every value at its longest, every character encoded at its largest. */
function worstCaseRequestLine(basePath: string, operation: Operation): number {
  const pathParameters = operation.parameters.filter((parameter) => parameter.in === 'path');
  const literalPath = pathParameters.reduce((path, parameter) => path.replace(`{${parameter.name}}`, ''), `${basePath}${operation.path}`);
  const path = literalPath.length + pathParameters.reduce((sum, parameter) => sum + parameter.longest * WORST_CASE_ENCODED_CHARACTER, 0);
  // `name=value&` for each, the (ASCII) name percent-encoded too.
  const query = operation.parameters
    .filter((parameter) => parameter.in === 'query')
    .reduce((sum, parameter) => sum + parameter.name.length * 3 + '='.length + parameter.longest * WORST_CASE_ENCODED_CHARACTER + '&'.length, 0);
  return `${operation.method} `.length + path + '?'.length + query + ' HTTP/1.1\r\n'.length;
}

/** `Idempotency-Key: …\r\n` and the other headers the operation declares, each value at its longest. */
function worstCaseDeclaredHeaders(operation: Operation): number {
  return operation.parameters
    .filter((parameter) => parameter.in === 'header')
    .reduce((sum, parameter) => sum + parameter.name.length + ': '.length + parameter.longest * WORST_CASE_HEADER_CHARACTER + '\r\n'.length, 0);
}

/** The largest request head (request line and headers, in bytes) any operation of `document` allows, plus ORDINARY_HEADERS_BYTES. */
export function largestRequestHead(document: Document): number {
  const basePath = new URL((document.servers as { url: string }[])[0]!.url).pathname.replace(/\/$/, '');
  const largest = Math.max(...operationsOf(document).map((operation) => worstCaseRequestLine(basePath, operation) + worstCaseDeclaredHeaders(operation)));
  return largest + ORDINARY_HEADERS_BYTES;
}

/** The limit both HTTP servers (the service and the mock) give Node's parser as `maxHeaderSize`. */
export const MAX_REQUEST_HEAD_BYTES = largestRequestHead(contractDocument);
