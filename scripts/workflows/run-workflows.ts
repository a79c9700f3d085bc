/**
 * What `npm run workflows` does: brings up the target (or takes the one at `url`), gives the
 * workflows their inputs, and runs the target's workflow files with Respect.
 */
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { filesFor, type WorkflowTarget } from './catalog.ts';
import { runRespect, type RespectResult } from './run-respect.ts';

/** The balance of the key `out-of-credits.arazzo.yaml` runs out with: below its extraction's 5 credits. */
export const LOW_CREDITS = 3;

/** The variables that give the keys of a server at `--url`. */
export const KEY_VARIABLES = { api_key: 'WORKFLOWS_API_KEY', low_credit_api_key: 'WORKFLOWS_LOW_CREDIT_API_KEY' } as const;

export class WorkflowsUsageError extends Error {}

export interface WorkflowsOptions {
  target: WorkflowTarget;
  /** A running target's base URL (with `/v1`) instead of one started here. */
  url?: string;
  jsonOutput?: string;
  write: (text: string) => void;
  /** Where the keys of a target at `url` are read (process.env). */
  env?: NodeJS.ProcessEnv;
}

interface StartedTarget {
  baseUrl: string;
  keys: { api_key: string; low_credit_api_key?: string };
  close(): Promise<void>;
}

// The targets are imported when started: a usage error or a target at --url loads neither.
async function startMock(): Promise<StartedTarget> {
  const { contractPath } = await import('../../lib/contract-document.ts');
  const { createMockServer } = await import('../../mock/create-mock-server.ts');
  const { createPrismEngine } = await import('../../mock/prism-engine.ts');
  const server = createMockServer({ engine: await createPrismEngine(contractPath), log: () => {} });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    keys: { api_key: 'any-key-the-mock-accepts' },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

async function startServer(): Promise<StartedTarget> {
  const { startSandboxServer } = await import('./sandbox-server.ts');
  const server = await startSandboxServer();
  return { baseUrl: server.baseUrl, keys: { api_key: await server.sandboxKey(1_000), low_credit_api_key: await server.sandboxKey(LOW_CREDITS) }, close: () => server.close() };
}

/** A target someone else runs: its keys come from the environment (any key will do for a mock). */
function runningTarget(target: WorkflowTarget, url: string, env: NodeJS.ProcessEnv): StartedTarget {
  if (!/^https?:\/\/[^/]+.*\/v1$/.test(url)) throw new WorkflowsUsageError(`--url must be the target's base URL ending in /v1, such as http://127.0.0.1:3000/v1, got "${url}"`);
  if (target === 'mock') return { baseUrl: url, keys: { api_key: env[KEY_VARIABLES.api_key] || 'any-key-the-mock-accepts' }, close: async () => {} };
  const missing = Object.values(KEY_VARIABLES).filter((name) => !env[name]);
  if (missing.length > 0) throw new WorkflowsUsageError(`--target server --url needs the keys in ${missing.join(' and ')} (a key with 1,000 credits; a key with ${LOW_CREDITS} credits)`);
  return { baseUrl: url, keys: { api_key: env[KEY_VARIABLES.api_key]!, low_credit_api_key: env[KEY_VARIABLES.low_credit_api_key]! }, close: async () => {} };
}

/** Runs the target's workflows; the result's exit code is 0 when every one passed. */
export async function runWorkflows(options: WorkflowsOptions): Promise<RespectResult> {
  const started = options.url ? runningTarget(options.target, options.url, options.env ?? process.env) : await (options.target === 'mock' ? startMock() : startServer());
  try {
    const files = filesFor(options.target);
    options.write(`Running ${files.length} workflow file(s) against the ${options.target} at ${started.baseUrl}\n`);
    return await runRespect({
      files,
      baseUrl: started.baseUrl,
      inputs: { ...started.keys, idempotency_key: randomUUID() },
      write: options.write,
      ...(options.jsonOutput ? { jsonOutput: options.jsonOutput } : {}),
    });
  } finally {
    await started.close();
  }
}
