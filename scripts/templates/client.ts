import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { paths } from './types.ts';

export type { paths, components, operations, webhooks } from './types.ts';

/** Options of {@link createQueryClient}. */
export interface QueryClientOptions extends Omit<ClientOptions, 'baseUrl'> {
  /** The server URL including `/v1`, e.g. `http://127.0.0.1:3000/v1` (server) or `http://127.0.0.1:4010/v1` (mock). */
  baseUrl: string;
  /** The API key, sent as `x-api-key` on every call. Keep it on the server side. */
  apiKey: string;
}

/** The typed client of the Web and Social Data Query Service. */
export type QueryClient = Client<paths>;

/** Creates a typed client that sends `apiKey` in the `x-api-key` header of every call. */
export function createQueryClient({ baseUrl, apiKey, headers, ...options }: QueryClientOptions): QueryClient {
  return createClient<paths>({
    ...options,
    baseUrl: baseUrl.replace(/\/+$/, ''),
    headers: { ...normalizeHeaders(headers), 'x-api-key': apiKey },
  });
}

function normalizeHeaders(headers: ClientOptions['headers']): Record<string, string> {
  if (!headers) return {};
  const normalized: Record<string, string> = {};
  for (const [name, value] of new Headers(headers as HeadersInit)) normalized[name] = value;
  return normalized;
}
