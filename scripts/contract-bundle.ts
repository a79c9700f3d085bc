/**
 * The contract bundled into one JSON text inside this process, by Redocly's own bundler
 * (`@redocly/openapi-core`, the library under `redocly bundle`). The breaking-change gate bundles
 * two contracts a run and its tests several dozen: a CLI process for each cost about half a second
 * of start-up, this about a tenth of that. scripts/contract-bundle.test.ts holds it to the CLI's
 * output byte for byte, and to the CLI's refusal of a contract with an unresolved `$ref`.
 */
import { relative, resolve } from 'node:path';
import { bundle, createConfig, getLineColLocation, type Config } from '@redocly/openapi-core';
import { ContractProblemsError } from './contract-problems.ts';

let config: Promise<Config> | undefined;

function displayedFile(absolutePath: string): string {
  const fromHere = relative(process.cwd(), absolutePath);
  return fromHere.startsWith('..') ? absolutePath : fromHere;
}

/**
 * The contract whose root file is `contract`, bundled as `redocly bundle --ext json` writes it. A
 * contract the bundler cannot bundle (a `$ref` to nothing) is a ContractProblemsError naming the
 * first `file:line:col`, as the CLI refuses it with "bundle not created".
 */
export async function bundleContractInProcess(contract: string): Promise<string> {
  config ??= createConfig({});
  const result = await bundle({ ref: resolve(contract), config: await config });
  const errors = result.problems.filter((problem) => problem.severity === 'error');
  if (errors.length > 0) {
    throw new ContractProblemsError(
      errors.map((problem) => {
        const [place] = problem.location;
        const start = place ? getLineColLocation(place).start : undefined;
        return {
          file: displayedFile(place?.source.absoluteRef ?? resolve(contract)),
          line: start?.line ?? 1,
          col: start?.col ?? 1,
          message: problem.message,
          ruleId: problem.ruleId,
        };
      }),
    );
  }
  return JSON.stringify(result.bundle.parsed, null, 2);
}
