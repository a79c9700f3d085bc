/** Renders the contract as a single self-contained HTML reference (Redoc, scripts inlined). */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { assertContractLintsClean } from './contract-problems.ts';
import { contractRoot, projectRoot } from './paths.ts';

const run = promisify(execFile);

/** Where `npm run docs` writes the reference. */
export const referencePath = join(projectRoot, 'build', 'reference.html');

/**
 * Writes the reference of the contract at `contract` to `outputPath`; it loads nothing from the
 * network. A contract that does not lint clean throws a ContractProblemsError instead.
 */
export async function buildReference(outputPath: string = referencePath, contract: string = contractRoot): Promise<string> {
  await assertContractLintsClean(contract);
  const redocly = join(projectRoot, 'node_modules', '.bin', 'redocly');
  await run(
    redocly,
    [
      'build-docs',
      contract,
      '--inlineBundle',
      '--output',
      outputPath,
      '--title',
      'Web and Social Data Query Service — API reference',
      // Also off in redocly.yaml (telemetry: off); this one reaches the rendered page's own settings.
      '--openapi.disableTelemetry=true',
    ],
    { cwd: projectRoot },
  );
  return outputPath;
}
