/**
 * What the toolchain's entry points (`npm run generate`, `docs`, `check:generated`) share: their
 * options, and an ending without a stack trace when the contract has a problem.
 */
import { parseArgs } from 'node:util';
import { ToolchainError } from './contract-problems.ts';
import { contractRoot } from './paths.ts';

/** The options an entry point accepts: the contract to read (default openapi/openapi.yaml) and, for some, where to write. */
export interface EntryPointOptions {
  readonly contract: string;
  readonly output: string | undefined;
  /** The values of the entry point's own string options (`command.ownOptions`), by name. */
  readonly own: Readonly<Record<string, string | undefined>>;
}

/**
 * Runs `main` with the command line's options. A usage error prints the usage and exits 2; a
 * contract problem prints its one-line `file:line:col message` (any ToolchainError, its message) and exits
 * with the error's code (1, or 2 for a UsageError).
 */
export async function runEntryPoint(
  command: { readonly usage: string; readonly writesOutput: boolean; readonly ownOptions?: readonly string[] },
  main: (options: EntryPointOptions) => Promise<void>,
): Promise<void> {
  const { usage } = command;
  let options: EntryPointOptions;
  try {
    const { values } = parseArgs({
      options: {
        contract: { type: 'string' },
        help: { type: 'boolean' },
        ...(command.writesOutput ? { output: { type: 'string' } } : {}),
        ...Object.fromEntries((command.ownOptions ?? []).map((name) => [name, { type: 'string' }])),
      } as const,
      strict: true,
      allowPositionals: false,
    });
    if (values.help) {
      console.log(`usage: ${usage}`);
      return;
    }
    const own = Object.fromEntries((command.ownOptions ?? []).map((name) => [name, (values as Record<string, unknown>)[name] as string | undefined]));
    options = { contract: (values.contract as string | undefined) ?? contractRoot, output: values.output as string | undefined, own };
  } catch (error) {
    console.error(`${(error as Error).message}\nusage: ${usage}`);
    process.exitCode = 2;
    return;
  }
  try {
    await main(options);
  } catch (error) {
    if (!(error instanceof ToolchainError)) throw error;
    console.error(error.message);
    process.exitCode = error.exitCode;
  }
}
