/**
 * Checks a request against the contract as the server and the mock would: an operation at its
 * method and path, no query parameter the operation lacks, parameters and body valid against their
 * schemas (Prism's request validator, as the mock uses it), a JSON body that parses, and the rules
 * across parameters (lib/cross-parameter-rules.ts). The proxy forwards the request whatever it finds.
 */
import { queryRecord } from '../../lib/query-record.ts';
import { getHttpOperationsFromSpec, type IHttpRequest } from '@stoplight/prism-http';
// Prism's request validator, the one its mocker runs (not exported from the package root).
import { validateInput } from '@stoplight/prism-http/dist/validator/index.js';
import type { IHttpOperation } from '@stoplight/types';
import { crossParameterProblem } from '../../lib/cross-parameter-rules.ts';
import { matchRoute } from '../../lib/contract-routes.ts';
import type { OperationRow } from '../../generated/operations.ts';
import { requestProblems, type Diagnostic } from '../../mock/validation-message.ts';
import { bundlePath } from '../paths.ts';
import type { Violation } from './violations.ts';

export const BASE_PATH = '/v1';

export interface RequestCheck {
  /** The operation the request addresses, or null when it addresses none. */
  operation: OperationRow | null;
  violations: Violation[];
}

export type RequestChecker = (request: { method: string; target: string; headers: Record<string, string>; body: Buffer }, nowMs: number) => RequestCheck;

function parsedBody(body: Buffer, contentType: string | undefined): { value?: unknown; problem?: string } {
  if (body.length === 0) return {};
  if (!/^application\/json\s*(;|$)/i.test(contentType ?? '')) return { problem: `request body is sent as "${contentType ?? 'no content type'}", not application/json` };
  try {
    return { value: JSON.parse(body.toString('utf8')) };
  } catch (error) {
    return { problem: `request body is not valid JSON: ${(error as Error).message}` };
  }
}

/** Loads the contract's operations for Prism's validator and returns the checker. */
export async function createRequestChecker(): Promise<RequestChecker> {
  const prismOperations = new Map((await getHttpOperationsFromSpec(bundlePath)).map((operation) => [operation.iid, operation] as [string | undefined, IHttpOperation]));
  return ({ method, target, headers, body }, nowMs) => {
    const url = new URL(target, 'http://proxy.invalid');
    const path = url.pathname.slice(BASE_PATH.length);
    const route = matchRoute(method, path);
    if (route.kind !== 'operation') {
      const why = route.kind === 'wrong-method' ? ` (${url.pathname} allows ${route.allow.join(', ')})` : '';
      return { operation: null, violations: [{ kind: 'request', message: `no operation at ${method} ${url.pathname}${why}` }] };
    }
    const { operation } = route;
    const problems = [...new Set(url.searchParams.keys())].filter((name) => !operation.queryParameters.includes(name)).map((name) => `query.${name} is not a parameter of ${operation.operationId}`);
    const parsed = parsedBody(body, headers['content-type']);
    if (parsed.problem) problems.push(parsed.problem);
    else if (parsed.value === undefined && operation.requestBody === 'required') problems.push(`request body is required by ${operation.operationId}`);
    const query = queryRecord(url.searchParams);
    const element: IHttpRequest = { method: method.toLowerCase() as IHttpRequest['method'], url: { path, query }, headers, ...(parsed.value === undefined ? {} : { body: parsed.value }) };
    const validated = validateInput({ resource: prismOperations.get(operation.operationId)!, element });
    if (validated._tag === 'Left') problems.push(...requestProblems(validated.left as unknown as Diagnostic[]));
    const crossProblem = crossParameterProblem(operation.operationId, query, nowMs);
    if (crossProblem) problems.push(crossProblem);
    return { operation, violations: problems.map((message) => ({ kind: 'request', message })) };
  };
}
