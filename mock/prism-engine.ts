/**
 * Prism's HTTP mocker over the bundled contract: request validation and example or dynamic answers.
 *
 * Per request Prism is handed only the operation the mock's own router matched: its router scores
 * every operation of the contract on every call otherwise (a sixth of a request's time). Prism's
 * parts are loaded one by one (router, validator, mocker): its index also loads the proxy forwarder
 * and the contract reader, which the mock does not use once the operations are cached.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLogger, factory } from '@stoplight/prism-core';
import type { IHttpConfig, IHttpRequest, IHttpResponse } from '@stoplight/prism-http';
import type { IHttpOperation } from '@stoplight/types';
import { configureDynamicData } from './dynamic-data.ts';
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

const BASE_CONFIG = {
  mock: { dynamic: false },
  checkSecurity: false,
  validateRequest: true,
  validateResponse: false,
  errors: false,
  upstreamProxy: undefined,
  isProxy: false,
} as const;

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

/** Prism's `createInstance` without the forwarder: the mock never proxies (`isProxy: false`). */
function createPrismInstance(logger: ReturnType<typeof createLogger>) {
  const route = require('@stoplight/prism-http/dist/router').default;
  const validator = require('@stoplight/prism-http/dist/validator');
  const mock = require('@stoplight/prism-http/dist/mocker').default;
  // After the mocker: loading its generator resets json-schema-faker's options.
  configureDynamicData();
  const forward = () => {
    throw new Error('the mock does not forward requests');
  };
  return factory<IHttpOperation, IHttpRequest, IHttpResponse, IHttpConfig>(BASE_CONFIG as unknown as IHttpConfig, {
    logger,
    route,
    validateInput: validator.validateInput,
    validateOutput: validator.validateOutput,
    validateSecurity: validator.validateSecurity,
    mock,
    forward,
  });
}

/** Loads the contract's operations into a Prism instance. */
export async function createPrismEngine(contractPath: string): Promise<PrismEngine> {
  const operations = await loadOperations(contractPath);
  const operationById = new Map(operations.map((operation) => [operation.iid, [operation]]));
  const logger = createLogger('mock', { enabled: false });
  const prism = createPrismInstance(logger);

  return {
    async respond(request, preferences) {
      const input: IHttpRequest = {
        method: request.method.toLowerCase() as IHttpRequest['method'],
        url: { path: request.path, query: request.query },
        headers: request.headers,
        body: request.body,
      };
      const config = { ...BASE_CONFIG, mock: { ...BASE_CONFIG.mock, ...preferences } } as unknown as IHttpConfig;
      const result = await prism.request(input, operationById.get(request.operationId) ?? operations, config)();
      if (result._tag === 'Left') {
        const problem = result.left as Error & { status?: number; detail?: string };
        return { kind: 'selection-problem', status: problem.status ?? 500, detail: problem.detail ?? problem.message };
      }
      const { output, validations } = result.right;
      return {
        kind: 'answer',
        status: output.statusCode,
        headers: (output.headers ?? {}) as Record<string, string>,
        body: output.body,
        diagnostics: validations.input as unknown as Diagnostic[],
      };
    },
  };
}
