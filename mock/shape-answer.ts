/**
 * The mock's 200 answers, made to agree with the request as the sandbox server's answer to it
 * would, after Prism produced one and before it is sent:
 *
 * - The default answer (no `Prefer: example=…` nor `dynamic=true`) of a data operation (scrape,
 *   search, map, extract, short-video, finance, microblog, social network) is the sandbox
 *   provider's own `data` for the request: the same function answers a sandbox key on the server.
 * - The answers of jobs and monitors, and dynamic answers, are the example's or the generated data
 *   conformed to the request (`conform-data.ts`); dynamic data is made believable
 *   (`dynamic-data.ts`).
 * - A named example asked for with `Prefer: example=…` keeps the example's data.
 * - Every answer gets a fresh `request_id`; all but a named example report the mock's balance.
 */
import type { ErrorCode } from '../generated/errors.ts';
import type { OperationRow } from '../generated/operations.ts';
import { contractDocument } from '../lib/contract-document.ts';
import type { EnvelopeBody } from '../lib/envelope.ts';
import { resourceNotFound } from '../lib/error-messages.ts';
import { newRequestId } from '../lib/request-id.ts';
import { sandboxProvider } from '../server/providers/sandbox/index.ts';
import { type DataOperationId, ProviderError } from '../server/providers/types.ts';
import { BoundedMemo } from '../lib/bounded-memo.ts';
import { conformData } from './conform-data.ts';
import { deepFrozen } from '../lib/deep-frozen.ts';
import { withKeptJson } from './kept-json.ts';
import { makeBelievable } from './dynamic-data.ts';
import type { Preferences } from './preferences.ts';

const SANDBOX_OPERATIONS: readonly string[] = [
  'scrapeWebPage', 'searchWeb', 'mapWebsite', 'extractWebData',
  'listCollectionVideos', 'getPriceHistory', 'getMicroblogPost', 'listSocialEvents',
] satisfies DataOperationId[];

export interface ShapeRequest {
  operation: OperationRow;
  /** The path below `/v1`. */
  path: string;
  /** The operation's query parameters (Prism's selection parameters removed). */
  query: URLSearchParams;
  body: unknown;
  preferences: Preferences;
  /** The balance the mock reports. */
  balance: number;
}

export type ShapedAnswer = { ok: true; envelope: EnvelopeBody } | { ok: false; code: ErrorCode; message: string };

/** Path parameters by name, read from `path` with the operation's template. */
function pathParameters(template: string, path: string): Record<string, string> {
  const names = [...template.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);
  const pattern = new RegExp(`^${template.replace(/\{\w+\}/g, '([^/]+)')}$`);
  const values = pattern.exec(path)?.slice(1) ?? [];
  return Object.fromEntries(names.map((name, index) => [name, decodeURIComponent(values[index] ?? '')]));
}

type Node = Record<string, any>;

function resolved(node: Node): Node {
  let current = node;
  while (typeof current.$ref === 'string') current = current.$ref.slice(2).split('/').reduce((parent: Node, key: string) => parent[key], contractDocument);
  return current;
}

/** The records a path id names, and the pattern of their `id`: the mock echoes only an id that a record can have. */
const recordSchemas = (contractDocument.components as Node).schemas as Node;
const PATH_ID_RECORDS: Record<string, { kind: string; pattern: RegExp }> = {
  job_id: { kind: 'job', pattern: new RegExp(resolved(recordSchemas.Job).properties.id.pattern) },
  monitor_id: { kind: 'monitor', pattern: new RegExp(resolved(recordSchemas.Monitor).properties.id.pattern) },
};

/** A path id no record can have (not `job_` or `mon_` and a ULID) names nothing: 404, as the server answers an id it never issued. */
function unknownRecord(params: Record<string, string>): ShapedAnswer | undefined {
  for (const [name, value] of Object.entries(params)) {
    const record = PATH_ID_RECORDS[name];
    if (record && !record.pattern.test(value)) return { ok: false, code: 'resource_not_found', message: resourceNotFound(record.kind, value) };
  }
  return undefined;
}

/** Each operation's query parameters that have a default, and the default as text. */
const QUERY_DEFAULTS = new Map<string, [string, string][]>(
  Object.values(contractDocument.paths as Node).flatMap((item: Node) => Object.values(item)).filter((operation: Node) => operation.operationId).map((operation: Node) => [
    operation.operationId,
    (operation.parameters ?? []).map(resolved)
      .filter((parameter: Node) => parameter.in === 'query' && resolved(parameter.schema).default !== undefined)
      .map((parameter: Node) => [parameter.name, String(resolved(parameter.schema).default)]),
  ]),
);

/** The query as the server's validator hands it on: every parameter left out that has a default, set to it. */
function withDefaults(operationId: string, query: URLSearchParams): Record<string, string> {
  return { ...Object.fromEntries(QUERY_DEFAULTS.get(operationId) ?? []), ...Object.fromEntries(query) };
}

type SandboxAnswer = Readonly<Record<string, unknown>> | ProviderError;

/** Sandbox answers kept, by operation and query, the least recently used dropped. */
export const SANDBOX_ANSWERS_KEPT = 256;
const sandboxAnswers = new BoundedMemo<SandboxAnswer>(SANDBOX_ANSWERS_KEPT);

async function fetchSandbox(operationId: DataOperationId, query: Record<string, string>): Promise<SandboxAnswer> {
  try {
    return await sandboxProvider.fetch({ operationId, query, signal: new AbortController().signal });
  } catch (error) {
    if (error instanceof ProviderError) return error;
    throw error;
  }
}

/**
 * The sandbox provider's `data` for the request, or the error it answers (a magic input, a rule
 * across parameters), given the query with the contract's defaults filled in. The sandbox answers
 * from the request alone (no clock, no randomness but the request's seed, no state), so its answer
 * is kept by the operation and the query as given, and shared, frozen; a scrape that asks for
 * `wait_for` is answered anew, since the wait is part of its answer.
 */
async function sandboxData(operationId: DataOperationId, query: URLSearchParams): Promise<SandboxAnswer> {
  if (Number(query.get('wait_for') ?? 0) > 0) return fetchSandbox(operationId, withDefaults(operationId, query));
  const key = `${operationId}?${query}`;
  const known = sandboxAnswers.get(key);
  if (known) return known;
  const answer = await fetchSandbox(operationId, withDefaults(operationId, query));
  // A copy is frozen: the sandbox's own objects may be shared with its other answers. Its JSON is
  // written once, for every answer that carries it.
  const kept = answer instanceof ProviderError ? answer : withKeptJson(deepFrozen(structuredClone(answer)));
  sandboxAnswers.set(key, kept);
  return kept;
}

/** Prism's 200 `envelope` made to agree with the request (see the file's comment); `envelope` is left alone. */
export async function shapeSuccess(request: ShapeRequest, envelope: EnvelopeBody): Promise<ShapedAnswer> {
  const { operation, preferences } = request;
  const requestId = newRequestId();
  if (preferences.exampleKey !== undefined) return { ok: true, envelope: { ...envelope, request_id: requestId } };

  if (!preferences.dynamic && SANDBOX_OPERATIONS.includes(operation.operationId)) {
    const data = await sandboxData(operation.operationId as DataOperationId, request.query);
    if (data instanceof ProviderError) return { ok: false, code: data.code, message: data.message };
    return { ok: true, envelope: { ...envelope, request_id: requestId, credits_remaining: request.balance, cached: false, data: data as Record<string, unknown> } };
  }
  const shaped: EnvelopeBody = { ...envelope, request_id: requestId, credits_remaining: request.balance };

  const params = pathParameters(operation.path, request.path);
  const unknown = unknownRecord(params);
  if (unknown) return unknown;
  const now = Date.now();
  const data = conformData(envelope.data as Record<string, unknown>, {
    operationId: operation.operationId,
    query: request.query,
    params,
    body: request.body as Record<string, unknown> | undefined,
    creditCost: operation.creditCost,
    now,
  });
  if (preferences.dynamic) makeBelievable(data, now);
  return { ok: true, envelope: { ...shaped, data } };
}
