/**
 * `npm run contract:diff -- [--base REF]`: the breaking-change gate (scripts/contract-diff/). Exit 1 on an unallowed breaking change.
 * `contractDiff` is the command after its options are parsed, so tests run it in-process; run as a
 * script, this file parses the command line (runEntryPoint: usage errors, a UsageError's exit 2)
 * and prints its answer.
 */
import { runEntryPoint } from './entry-point.ts';
import { runGate } from './contract-diff/gate.ts';

/**
 * The gate's answer for the contract at `contract` against `base` (default: the branch's base) on
 * `today`: the changelog it prints and its exit code, 1 on an unallowed breaking change. A problem
 * of how it was called (a `--base` that is no commit, a shallow clone) is thrown as a UsageError.
 */
export async function contractDiff(options: { contract: string; base: string | undefined; today: Date }): Promise<{ exitCode: 0 | 1; stdout: string; stderr: string }> {
  const { report, failed } = await runGate(options);
  return { exitCode: failed ? 1 : 0, stdout: `${report}\n`, stderr: '' };
}

if (import.meta.main) {
  await runEntryPoint(
    { usage: 'npm run contract:diff [-- --base REF --contract openapi/openapi.yaml]', writesOutput: false, ownOptions: ['base'] },
    async ({ contract, own }) => {
      const { exitCode, stdout, stderr } = await contractDiff({ contract, base: own.base, today: new Date() });
      process.stdout.write(stdout);
      process.stderr.write(stderr);
      if (exitCode !== 0) process.exitCode = exitCode;
    },
  );
}
