/**
 * `npm run workflows`: the Arazzo workflows pass on both targets, and they bite: a server that
 * charges a replayed Idempotency-Key twice, or charges before a 402, fails the workflow at the check
 * of that promise.
 */
import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../scripts/paths.ts';
import { calledWorkflows, filesFor, workflowFiles, workflowsDir } from '../../scripts/workflows/catalog.ts';
import { runRespect, type RespectReport } from '../../scripts/workflows/run-respect.ts';
import { LOW_CREDITS, runWorkflows } from '../../scripts/workflows/run-workflows.ts';
import { startSandboxServer } from '../../scripts/workflows/sandbox-server.ts';
import { startChargingRefusalServer, startDoubleChargingServer } from './broken-promises.ts';

const run = promisify(execFile);
const WORKFLOW_TIMEOUT_MS = 120_000;

interface ExecutedStep {
  stepId?: string;
  checks?: { name: string; passed: boolean; condition?: string }[];
  executedSteps?: ExecutedStep[];
}

/** The top-level workflows the report says ran, by file. */
function executedWorkflows(report: RespectReport): Record<string, string[]> {
  return Object.fromEntries(Object.entries(report.files).map(([file, { executedWorkflows: ran }]) => [basename(file), ran.map(({ workflowId }) => workflowId)]));
}

/** Every failed check of the report, as `stepId: condition or check name`. */
function failedChecks(report: RespectReport): string[] {
  const failed: string[] = [];
  const visit = (steps: ExecutedStep[]): void => {
    // As Respect counts them: a retried step by its last attempt only.
    const lastAttempts = steps.filter((step, index) => step.stepId === undefined || steps.findLastIndex(({ stepId }) => stepId === step.stepId) === index);
    for (const step of lastAttempts) {
      if (step.executedSteps) visit(step.executedSteps);
      for (const check of step.checks ?? []) if (!check.passed) failed.push(`${step.stepId}: ${check.condition ?? check.name}`);
    }
  };
  for (const { executedWorkflows: ran } of Object.values(report.files)) visit(ran.flatMap(({ executedSteps }) => executedSteps as ExecutedStep[]));
  return failed;
}

// Each case runs Respect in a process of its own against a server of its own (its own database):
// side by side, each asserting with its own `expect`.
describe.concurrent('npm run workflows', () => {
  const targets = [
    {
      target: 'server' as const,
      ran: {
        'search-then-scrape.arazzo.yaml': ['searchThenScrape'],
        'crawl-lifecycle.arazzo.yaml': ['crawlLifecycle'],
        'monitor-lifecycle.arazzo.yaml': ['monitorLifecycle'],
        'idempotent-retry.arazzo.yaml': ['idempotentRetry'],
        'out-of-credits.arazzo.yaml': ['outOfCredits'],
      },
    },
    { target: 'mock' as const, ran: { 'search-then-scrape.arazzo.yaml': ['searchThenScrape'] } },
  ];

  it.for(targets)('every workflow for the $target passes there, and only those run', { timeout: WORKFLOW_TIMEOUT_MS }, async ({ target, ran }, { expect }) => {
    let output = '';
    const { exitCode, report } = await runWorkflows({ target, write: (text) => void (output += text) });

    expect(failedChecks(report!), output).toEqual([]);
    expect(exitCode).toBe(0);
    expect(report!.status).toBe('success');
    expect(executedWorkflows(report!)).toEqual(ran);
    expect(output).not.toMatch(/wsdq_test_/);
  });

  const brokenPromises = [
    {
      name: 'a server that charges a replayed Idempotency-Key twice fails the idempotency workflow at its balance check',
      file: 'idempotent-retry.arazzo.yaml',
      start: startDoubleChargingServer,
      failed: ['balanceAfterRetry: $response.header.X-Credits-Remaining == $steps.firstCall.outputs.credits_remaining'],
    },
    {
      name: 'a server that charges a credit before refusing with 402 fails the out-of-credits workflow at the balance the 402 reports',
      file: 'out-of-credits.arazzo.yaml',
      start: startChargingRefusalServer,
      failed: [
        'extractBeyondBalance: $response.body#/credits_remaining == $steps.spendOneCredit.outputs.credits_remaining',
        'extractBeyondBalance: $response.header.X-Credits-Remaining == $steps.spendOneCredit.outputs.credits_remaining',
      ],
    },
  ];

  it.for(brokenPromises)('$name', { timeout: WORKFLOW_TIMEOUT_MS }, async ({ file, start, failed }, { expect }) => {
    const server = await startSandboxServer();
    const broken = await start(server.baseUrl);
    try {
      const { exitCode, report } = await runRespect({
        files: [join(workflowsDir, file)],
        baseUrl: broken.baseUrl,
        inputs: { api_key: await server.sandboxKey(100), low_credit_api_key: await server.sandboxKey(LOW_CREDITS), idempotency_key: 'sent-twice' },
        write: () => {},
      });

      expect(exitCode).toBe(1);
      expect(failedChecks(report!)).toEqual(failed);
    } finally {
      await broken.close();
      await server.close();
    }
  });

  const usageCases = [
    { name: 'no --target prints the usage, exit 2', args: [], env: {}, says: /^--target must be mock or server, got nothing\nusage: npm run workflows/ },
    {
      name: '--target server --url without the keys names both variables, exit 2',
      args: ['--target', 'server', '--url', 'http://127.0.0.1:9/v1'],
      env: {},
      says: /^--target server --url needs the keys in WORKFLOWS_API_KEY and WORKFLOWS_LOW_CREDIT_API_KEY/,
    },
    { name: 'a --url that is not a base URL ending in /v1 says so, exit 2', args: ['--target', 'mock', '--url', 'http://127.0.0.1:9'], env: {}, says: /^--url must be the target's base URL ending in \/v1/ },
  ];

  it.for(usageCases)('$name', async ({ args, env, says }, { expect }) => {
    const cleanEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('WORKFLOWS_')));
    const result = await run(process.execPath, [join(projectRoot, 'scripts', 'workflows', 'main.ts'), ...args], { cwd: projectRoot, env: { ...cleanEnv, ...env } }).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code: number; stderr: string }) => error,
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(says);
  });
});

describe('the catalog of workflow files', () => {
  it('lists every file of openapi/workflows/, and the mock runs only the stateless ones', async () => {
    const files = (await readdir(workflowsDir)).filter((name) => name.endsWith('.arazzo.yaml')).sort();
    expect(workflowFiles.map(({ file }) => file).sort()).toEqual(files);
    expect(filesFor('mock')).toEqual(workflowFiles.filter(({ needsState }) => !needsState).map(({ file }) => join(workflowsDir, file)));
  });

  it('names as called-only exactly the workflows that steps call', async () => {
    const texts = await Promise.all(workflowFiles.map(({ file }) => readFile(join(workflowsDir, file), 'utf8')));
    // A step's `workflowId` is indented under `steps:` (8 spaces); a workflow's own starts its list item (2 spaces and a dash).
    const called = texts.flatMap((text) => [...text.matchAll(/^ {8}workflowId: (\w+)$/gm)].map((match) => match[1]));
    expect([...new Set(called)].sort()).toEqual([...calledWorkflows].sort());
  });

  it('is linted with the contract: redocly.yaml lists every workflow file as an API', async () => {
    const config = await readFile(join(projectRoot, 'redocly.yaml'), 'utf8');
    for (const { file } of workflowFiles) expect(config).toContain(`root: openapi/workflows/${file}`);
  });
});
