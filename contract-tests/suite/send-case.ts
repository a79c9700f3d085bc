/** Sends one contract case to a target, as every suite over the shared cases sends it. */
import type { ContractCase } from './cases.ts';
import { CASE_SITE_ORIGIN, type KeyRole } from './targets.ts';
import type { CallResult } from './valid-requests.ts';

function fillPath(path: string, parameters: Record<string, string>): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(parameters[name] ?? `missing-${name}`));
}

/** The value with every URL on CASE_SITE_ORIGIN moved to `siteOrigin`, the site the target fetches. */
function onSite<T>(value: T, siteOrigin: string): T {
  if (siteOrigin === CASE_SITE_ORIGIN) return value;
  if (typeof value === 'string') return (value.startsWith(CASE_SITE_ORIGIN) ? siteOrigin + value.slice(CASE_SITE_ORIGIN.length) : value) as T;
  if (Array.isArray(value)) return value.map((item) => onSite(item, siteOrigin)) as T;
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, onSite(item, siteOrigin)])) as T;
  return value;
}

/** Where a case is sent: the target's base URL, its keys and the site its URLs point to. */
export interface CaseTarget {
  baseUrl: string;
  apiKey: string;
  siteOrigin: string;
  keys: Partial<Record<KeyRole, string>>;
}

/** Sends `testCase` to `target`, path parameters filled, and reads the answer. */
export async function sendCase({ baseUrl, apiKey, siteOrigin, keys }: CaseTarget, testCase: ContractCase, pathParameters: Record<string, string>): Promise<CallResult & { contentType: string }> {
  const origin = new URL(baseUrl).origin;
  const url = new URL(testCase.rawPath ? `${origin}${testCase.path}` : `${baseUrl}${fillPath(testCase.path, pathParameters)}`);
  for (const [name, value] of Object.entries(onSite(testCase.query ?? {}, siteOrigin))) url.searchParams.set(name, value);
  const headers = new Headers(testCase.headers);
  if (!testCase.withoutKey) headers.set('x-api-key', testCase.keyRole ? keys[testCase.keyRole]! : apiKey);
  let body: string | Uint8Array<ArrayBuffer> | undefined;
  if (testCase.rawBody) {
    body = testCase.rawBody.text;
    headers.set('content-type', testCase.rawBody.contentType);
  } else if (testCase.body !== undefined && testCase.method !== 'GET') {
    const json = JSON.stringify(onSite(testCase.body, siteOrigin));
    body = testCase.bodyEncoding === 'utf-16le' ? new Uint8Array(Buffer.from(json, 'utf16le')) : testCase.bodyEncoding === 'utf-8 with a BOM' ? `\uFEFF${json}` : json;
    headers.set('content-type', testCase.bodyEncoding === 'utf-16le' ? 'application/json; charset=utf-16le' : 'application/json');
  }
  const response = await fetch(url, { method: testCase.method, headers, body });
  const text = await response.text();
  let parsed: Record<string, any>;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = { unparsable_body: text };
  }
  return { status: response.status, body: parsed, headers: response.headers, contentType: response.headers.get('content-type') ?? '' };
}
