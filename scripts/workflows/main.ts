/**
 * `npm run workflows -- --target mock|server [--url URL] [--json-output FILE]`: runs the Arazzo
 * workflows of openapi/workflows/ with Redocly Respect. Without `--url` it starts the target in
 * this process (the mock; or the server on a temporary database, with sandbox keys it issues);
 * with `--url` it runs against a target already running there. Exit 0 when every workflow passed,
 * 1 when one failed, 2 on a usage error.
 */
import { parseArgs } from 'node:util';
import { runWorkflows, WorkflowsUsageError, KEY_VARIABLES } from './run-workflows.ts';

const usage = `npm run workflows -- --target mock|server [--url URL] [--json-output FILE]
  --target       mock: the workflows that need no state, on the mock; server: all of them, on the server
  --url          a running target's base URL (such as http://127.0.0.1:3000/v1) instead of starting one;
                 for a server, its keys in ${KEY_VARIABLES.api_key} and ${KEY_VARIABLES.low_credit_api_key}
  --json-output  also write Respect's JSON report (every request and answer, keys masked) to FILE`;

function usageError(message: string): void {
  console.error(`${message}\nusage: ${usage}`);
  process.exitCode = 2;
}

let values;
try {
  ({ values } = parseArgs({ options: { target: { type: 'string' }, url: { type: 'string' }, 'json-output': { type: 'string' }, help: { type: 'boolean' } }, strict: true, allowPositionals: false }));
} catch (error) {
  usageError((error as Error).message);
}
if (values?.help) {
  console.log(`usage: ${usage}`);
} else if (values) {
  const { target, url, 'json-output': jsonOutput } = values;
  if (target !== 'mock' && target !== 'server') {
    usageError(`--target must be mock or server, got ${target === undefined ? 'nothing' : `"${target}"`}`);
  } else {
    try {
      const { exitCode } = await runWorkflows({ target, ...(url ? { url } : {}), ...(jsonOutput ? { jsonOutput } : {}), write: (text) => process.stdout.write(text) });
      process.exitCode = exitCode === 0 ? 0 : 1;
    } catch (error) {
      if (!(error instanceof WorkflowsUsageError)) throw error;
      usageError(error.message);
    }
  }
}
