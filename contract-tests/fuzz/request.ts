/** One request the fuzzer sends, how it is written on the wire, and the `curl` line that repeats it. */
import type { OperationId } from '../../generated/operations.ts';

/** Stands for the id of a job or monitor the fuzzer creates just before sending the request. */
export const CREATED_ID = '{created}';

export type KeyUse = 'valid' | 'missing' | 'wrong';

export interface FuzzRequest {
  operationId: OperationId;
  method: string;
  /** Path template below `/v1`, such as `/web/jobs/{job_id}`. */
  path: string;
  /** Path parameters as values (encoded when the path is written), or CREATED_ID. */
  pathParams: Record<string, string>;
  /** Path parameters written as they are, not encoded (a malformed percent-encoding). */
  rawPathParams?: string[];
  /** Query parameters in order, a name possibly repeated. */
  query: [string, string][];
  headers: Record<string, string>;
  /** The JSON body, or undefined for none. */
  body?: unknown;
  /** Sent instead of the JSON of `body` when set (malformed JSON). */
  rawBody?: string;
  /** The body's media type; application/json when absent. */
  contentType?: string;
  key: KeyUse;
  /** The one mutation that made the request invalid (`kind target`); absent on a valid request. */
  mutation?: string;
}

/** The path and query as written on the request line: every value percent-encoded, dots left as given. */
export function requestTarget(request: FuzzRequest): string {
  const path = request.path.replace(/\{(\w+)\}/g, (_whole, name: string) => {
    const value = request.pathParams[name] ?? '';
    return request.rawPathParams?.includes(name) ? value : encodeURIComponent(value);
  });
  const query = request.query.map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`).join('&');
  return `/v1${path}${query ? `?${query}` : ''}`;
}

/** The body as sent, or undefined. */
export function bodyText(request: FuzzRequest): string | undefined {
  if (request.rawBody !== undefined) return request.rawBody;
  return request.body === undefined ? undefined : JSON.stringify(request.body);
}

/** The headers as sent, the key included (`apiKey` for a valid one). */
export function requestHeaders(request: FuzzRequest, apiKey: string, wrongKey: string): Record<string, string> {
  const headers: Record<string, string> = { ...request.headers };
  if (request.key === 'valid') headers['x-api-key'] = apiKey;
  if (request.key === 'wrong') headers['x-api-key'] = wrongKey;
  if (bodyText(request) !== undefined) headers['content-type'] = request.contentType ?? 'application/json';
  return headers;
}

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * A `curl` line that sends the request again: the path as is (`--path-as-is`, no globbing), the
 * valid key as `$FUZZ_API_KEY` (each run issues its own), every other header and the body as sent.
 */
export function curlLine(request: FuzzRequest, origin: string, wrongKey: string): string {
  const parts = ['curl', '-sS', '-i', '--path-as-is', '-g', '-X', request.method, shellQuote(`${origin}${requestTarget(request)}`)];
  const headers = requestHeaders(request, 'KEY', wrongKey);
  for (const [name, value] of Object.entries(headers)) {
    // curl drops a header written `name:`; `name;` sends it empty.
    const written = value === '' ? shellQuote(`${name};`) : shellQuote(`${name}: ${value}`);
    parts.push('-H', name === 'x-api-key' && request.key === 'valid' ? `"x-api-key: $FUZZ_API_KEY"` : written);
  }
  const body = bodyText(request);
  if (body !== undefined) parts.push('--data-binary', shellQuote(body));
  return parts.join(' ');
}
