/** Prism's HTTP mocker over the bundled contract: request validation and example or dynamic answers. */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLogger } from '@stoplight/prism-core';
import { createInstance, getHttpOperationsFromSpec, type IHttpConfig, type IHttpRequest } from '@stoplight/prism-http';
import type { IHttpOperation } from '@stoplight/types';
import { configureDynamicData } from './dynamic-data.ts';
import type { Diagnostic } from './validation-message.ts';
import type { Preferences } from './preferences.ts';

export interface MockRequest {
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

configureDynamicData();

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
    const operations = await getHttpOperationsFromSpec(contractPath);
    await mkdir(dirname(cacheFile), { recursive: true });
    const partial = `${cacheFile}.${process.pid}.tmp`;
    await writeFile(partial, JSON.stringify(operations));
    await rename(partial, cacheFile);
    return operations;
  }
}

/** Loads the contract's operations into a Prism instance. */
export async function createPrismEngine(contractPath: string): Promise<PrismEngine> {
  const operations = await loadOperations(contractPath);
  const logger = createLogger('mock', { enabled: false });
  const prism = createInstance(BASE_CONFIG as unknown as IHttpConfig, { logger });

  return {
    async respond(request, preferences) {
      const input: IHttpRequest = {
        method: request.method.toLowerCase() as IHttpRequest['method'],
        url: { path: request.path, query: request.query },
        headers: request.headers,
        body: request.body,
      };
      const config = { ...BASE_CONFIG, mock: { ...BASE_CONFIG.mock, ...preferences } } as unknown as IHttpConfig;
      const result = await prism.request(input, operations, config)();
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
