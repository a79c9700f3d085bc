/**
 * Prism's HTTP mocker over the bundled contract: request validation and example or dynamic answers.
 *
 * Per request Prism is handed only the operation the mock's own router matched: its router scores
 * every operation of the contract on every call otherwise (a sixth of a request's time). Prism's
 * parts are loaded one by one (router, mocker) and called in the order of Prism's own
 * `createInstance` (route, validate the request, mock), without its forwarder, which the mock never
 * uses. Every request is validated, as Prism's `validateInput` would, by `request-validation.ts`
 * (prepared once per operation); a valid request's static answer is negotiated once per
 * operation, status, example and `Accept` (see `staticAnswerKey`).
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLogger } from '@stoplight/prism-core';
import type { IHttpOperationConfig, IHttpRequest, IHttpResponse } from '@stoplight/prism-http';
import type { IHttpOperation } from '@stoplight/types';
import { BoundedMemo } from '../lib/bounded-memo.ts';
import { deepFrozen } from '../lib/deep-frozen.ts';
import { configureDynamicData } from './dynamic-data.ts';
import { requestValidator, type RequestValidator } from './request-validation.ts';
import type { Diagnostic } from './validation-message.ts';
import type { Preferences } from './preferences.ts';

export interface MockRequest {
  /** The operation the mock's router matched. */
  operationId: string;
  method: string;
  /** Path below `/v1`. */
  path: string;
  query: Record<string, string | string[]>;
  headers: Record<string, string>;
  body?: unknown;
}

export type EngineResult =
  | { kind: 'answer'; status: number; headers: Record<string, string>; body: unknown; diagnostics: Diagnostic[] }
  | { kind: 'selection-problem'; status: number; detail: string };

/** Prism's mocker without `Prefer`: static answers, from the contract's examples. */
const DEFAULT_MOCK_CONFIG = { dynamic: false } as const;

/** Static answers kept: one per operation, status, example and `Accept` asked for, the least recently used dropped. */
export const STATIC_ANSWERS_KEPT = 1024;

/** Prism's routing verdicts kept, by operation, method and path, the least recently used dropped. */
export const ROUTES_KEPT = 1024;

type Either<Left, Right> = { _tag: 'Left'; left: Left } | { _tag: 'Right'; right: Right };
type PrismRoute = (options: { resources: IHttpOperation[]; input: IHttpRequest }) => Either<Error, IHttpOperation>;
type PrismMock = (options: { resource: IHttpOperation; input: { data: IHttpRequest; validations: unknown[] }; config: IHttpOperationConfig }) =>
  (logger: ReturnType<typeof createLogger>) => Either<Error, IHttpResponse>;

export interface PrismEngine {
  respond(request: MockRequest, preferences: Preferences): Promise<EngineResult>;
}

const CACHE_DIR = fileURLToPath(new URL('../node_modules/.cache/wsdq-mock/', import.meta.url));

/**
 * Prism's operations for the contract. Deriving them takes about half a second, so they are kept
 * in node_modules/.cache, keyed by the SHA-256 of the bundle: a changed contract derives anew.
 */
async function loadOperations(contractPath: string): Promise<IHttpOperation[]> {
  const bundle = await readFile(contractPath);
  const cacheFile = join(CACHE_DIR, `operations-${createHash('sha256').update(bundle).digest('hex').slice(0, 16)}.json`);
  try {
    return JSON.parse(await readFile(cacheFile, 'utf8')) as IHttpOperation[];
  } catch {
    const { getHttpOperationsFromSpec } = await import('@stoplight/prism-http');
    const operations = await getHttpOperationsFromSpec(contractPath);
    await mkdir(dirname(cacheFile), { recursive: true });
    const partial = `${cacheFile}.${process.pid}.tmp`;
    await writeFile(partial, JSON.stringify(operations));
    await rename(partial, cacheFile);
    return operations;
  }
}

const require = createRequire(import.meta.url);

/** Prism's parts the mock calls: its router and its mocker (its request validation is `request-validation.ts`). */
function prismParts() {
  const route = require('@stoplight/prism-http/dist/router').default as PrismRoute;
  const mock = require('@stoplight/prism-http/dist/mocker').default as PrismMock;
  // After the mocker: loading its generator resets json-schema-faker's options.
  configureDynamicData();
  return { route, mock };
}

/**
 * The operation as Prism is handed it: parameter lists that are empty are left out, which Prism
 * validates as nothing either way, but an empty path list still has it compile the path's URI
 * template on every call.
 */
function withoutEmptyParameterLists(operation: IHttpOperation): IHttpOperation {
  const request = { ...operation.request };
  for (const where of ['path', 'query', 'headers', 'cookie'] as const) {
    if (request[where]?.length === 0) delete request[where];
  }
  return { ...operation, request };
}

/** What Prism's static answer to a valid request depends on: the operation, the status and example asked for, `Accept`. */
function staticAnswerKey(operationId: string, preferences: Preferences, accept: string | undefined): string {
  return JSON.stringify([operationId, preferences.code ?? null, preferences.exampleKey ?? null, accept ?? null]);
}

/** The request headers Prism reads besides the operation's own: `Accept` (the mocker), the body's type and length (the validator). */
const HEADERS_PRISM_READS = ['accept', 'content-type', 'content-length'];

/**
 * Per operation, the names of the headers Prism reads (lower case, as Node gives them): the ones
 * the operation declares and `HEADERS_PRISM_READS`. Prism's header check goes over every header
 * given for each one declared; the others would change nothing in its diagnostics or its answer.
 */
function headersPrismReads(operation: IHttpOperation): string[] {
  const declared = (operation.request?.headers ?? []).map((header) => header.name.toLowerCase());
  return [...new Set([...declared, ...HEADERS_PRISM_READS])];
}

function pickHeaders(headers: Record<string, string>, names: readonly string[]): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const name of names) if (headers[name] !== undefined) picked[name] = headers[name];
  return picked;
}

/** The contract's operations as the engine hands them to Prism. */
export async function prismOperations(contractPath: string): Promise<IHttpOperation[]> {
  return (await loadOperations(contractPath)).map(withoutEmptyParameterLists);
}

/** Loads the contract's operations and Prism's parts. */
export async function createPrismEngine(contractPath: string): Promise<PrismEngine> {
  const operations = await prismOperations(contractPath);
  const operationById = new Map(operations.map((operation) => [operation.iid, {
    resources: [operation],
    headerNames: headersPrismReads(operation),
    /** Prism's verdict on the operation's own path (no path parameters), for the method it was asked with. */
    ownPath: undefined as { method: string; verdict: ReturnType<PrismRoute> } | undefined,
  }]));
  // Each operation's request validation, prepared once (the router hands back the operation it was given).
  const validators = new Map<IHttpOperation, RequestValidator>(operations.map((operation) => [operation, requestValidator(operation)]));
  const logger = createLogger('mock', { enabled: false }).child({ name: 'NEGOTIATOR' });
  const { route, mock } = prismParts();
  const routes = new BoundedMemo<ReturnType<PrismRoute>>(ROUTES_KEPT);
  const staticAnswers = new BoundedMemo<IHttpResponse>(STATIC_ANSWERS_KEPT);

  return {
    async respond(request, preferences) {
      const operation = operationById.get(request.operationId);
      const input: IHttpRequest = {
        method: request.method.toLowerCase() as IHttpRequest['method'],
        url: { path: request.path, query: request.query },
        headers: operation ? pickHeaders(request.headers, operation.headerNames) : request.headers,
        body: request.body,
      };
      // Prism's router, on the one operation the mock's router matched: its verdict depends on the
      // method and path alone; on the operation's own path (a path without parameters), on the
      // method alone, so it is kept with the operation rather than looked up by path.
      const resources = operation?.resources ?? operations;
      let routed: ReturnType<PrismRoute>;
      if (operation && input.url.path === resources[0]!.path) {
        if (operation.ownPath?.method !== input.method) operation.ownPath = { method: input.method, verdict: route({ resources, input }) };
        routed = operation.ownPath.verdict;
      } else {
        routed = routes.through(`${request.operationId} ${input.method} ${input.url.path}`, () => route({ resources, input }));
      }
      if (routed._tag === 'Left') return selectionProblem(routed.left);
      const resource = routed.right;
      const validations = (validators.get(resource) ?? requestValidator(resource))(input);
      const config: IHttpOperationConfig = { ...DEFAULT_MOCK_CONFIG, ...preferences };
      // A valid request's static answer is Prism's example for the operation, status and media
      // type: the same every time, so it is negotiated once, and kept frozen since every request
      // that gets it shares it. Dynamic answers and invalid requests go through Prism every time.
      const reusable = validations.length === 0 && !config.dynamic;
      const key = reusable ? staticAnswerKey(request.operationId, preferences, request.headers.accept) : '';
      let output = reusable ? staticAnswers.get(key) : undefined;
      if (!output) {
        const mocked = mock({ resource, input: { data: input, validations }, config })(logger);
        if (mocked._tag === 'Left') return selectionProblem(mocked.left);
        output = mocked.right;
        if (reusable) {
          output = deepFrozen(structuredClone(output));
          staticAnswers.set(key, output);
        }
      }
      return {
        kind: 'answer',
        status: output.statusCode,
        headers: (output.headers ?? {}) as Record<string, string>,
        body: output.body,
        diagnostics: validations,
      };
    },
  };
}

function selectionProblem(error: unknown): EngineResult {
  const problem = error as Error & { status?: number; detail?: string };
  return { kind: 'selection-problem', status: problem.status ?? 500, detail: problem.detail ?? problem.message };
}
