/**
 * `npm run fuzz -- --target mock|server [--requests N] [--seed S] [--operation ID] [--url URL --key KEY]`:
 * starts the target in this process (or calls the one at `--url`), fuzzes it, prints the summary.
 * Exit 0 when every check passed, 1 when one failed, 2 on a usage error.
 */
import { parseArgs } from 'node:util';
import { operations, type OperationId } from '../../generated/operations.ts';
import { formatReport } from './report.ts';
import { fuzz } from './run.ts';
import { startTarget, urlTarget, type FuzzTarget, type TargetKind } from './targets.ts';

export const USAGE = 'npm run fuzz -- --target mock|server [--requests N] [--seed S] [--operation ID]... [--url URL --key KEY]';

export interface FuzzCommand {
  target: TargetKind;
  requests: number;
  seed: number;
  operations: OperationId[] | undefined;
  url: string | undefined;
  key: string | undefined;
}

class UsageError extends Error {}

function integer(name: string, text: string | undefined, fallback: number, min: number): number {
  if (text === undefined) return fallback;
  if (!/^-?\d+$/.test(text) || Number(text) < min || !Number.isSafeInteger(Number(text))) throw new UsageError(`--${name} must be an integer of at least ${min}, got "${text}"`);
  return Number(text);
}

/** The command line's options; a UsageError names what is wrong. `randomSeed` is the seed when none is given. */
export function parseFuzzCommand(args: string[], randomSeed: number): FuzzCommand {
  const { values } = parseArgs({
    args,
    options: { target: { type: 'string' }, requests: { type: 'string' }, seed: { type: 'string' }, operation: { type: 'string', multiple: true }, url: { type: 'string' }, key: { type: 'string' } },
    strict: true,
    allowPositionals: false,
  });
  if (values.target !== 'mock' && values.target !== 'server') throw new UsageError(`--target must be mock or server${values.target === undefined ? '' : `, got "${values.target}"`}`);
  const known = operations.map((operation) => operation.operationId);
  const unknown = (values.operation ?? []).filter((id) => !known.includes(id as OperationId));
  if (unknown.length > 0) throw new UsageError(`--operation names no operation of the contract: ${unknown.join(', ')} (known: ${known.join(', ')})`);
  if (values.url !== undefined && values.target === 'server' && values.key === undefined) throw new UsageError('--url with --target server needs --key (a sandbox key of that server)');
  return {
    target: values.target,
    requests: integer('requests', values.requests, 1000, 1),
    seed: integer('seed', values.seed, randomSeed, 0),
    operations: values.operation as OperationId[] | undefined,
    url: values.url,
    key: values.key,
  };
}

/** Runs the command: prints the seed first, the summary last; sets the exit code. */
export async function runFuzzCommand(args: string[]): Promise<void> {
  let command: FuzzCommand;
  try {
    command = parseFuzzCommand(args, Math.floor(Math.random() * 2 ** 31));
  } catch (error) {
    if (!(error instanceof UsageError) && (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS') !== true) throw error;
    console.error(`${(error as Error).message}\nusage: ${USAGE}`);
    process.exitCode = 2;
    return;
  }
  console.log(`fuzz: seed ${command.seed} (repeat with --seed ${command.seed})`);
  const target: FuzzTarget = command.url ? urlTarget(command.target, command.url, command.key ?? 'fuzz-key-the-mock-accepts') : await startTarget(command.target);
  try {
    const report = await fuzz({ target, requests: command.requests, seed: command.seed, ...(command.operations ? { operations: command.operations } : {}), progress: (line) => console.log(`  ${line}`) });
    console.log(formatReport(report));
    process.exitCode = report.failures.length > 0 ? 1 : 0;
  } finally {
    await target.stop();
  }
}
