/**
 * Lints a contract with the project's redocly.yaml before anything is derived from it, so that
 * `npm run generate`, `npm run docs` and `npm run check:generated` stop at a broken contract with
 * the linter's own one-line `file:line:col message` instead of a stack trace, or a reference
 * rendered from half a contract.
 */
import { execFile } from 'node:child_process';
import { join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { contractRoot, projectRoot } from './paths.ts';

const run = promisify(execFile);

/** One problem the linter found, where it is and which rule found it. */
export interface ContractProblem {
  readonly file: string;
  readonly line: number;
  readonly col: number;
  readonly message: string;
  readonly ruleId: string;
}

/** An error whose message says all a user needs: the entry points print it alone, without a stack trace, and exit 1. */
export class ToolchainError extends Error {
  override name = 'ToolchainError';
  /** The entry point's exit code: 1, a problem of the contract; 2, a problem of how it was called. */
  readonly exitCode: 1 | 2 = 1;
}

/** A problem of how an entry point was called (a `--base` that is no commit, a history too shallow): exit 2. */
export class UsageError extends ToolchainError {
  override name = 'UsageError';
  override readonly exitCode = 2;
}

/** A contract that does not lint clean; the message is its first problem, one line, ready to print. */
export class ContractProblemsError extends ToolchainError {
  readonly problems: readonly ContractProblem[];

  constructor(problems: readonly ContractProblem[]) {
    const more = problems.length - 1;
    const summary = more > 0 ? `\n(${more} more problem${more === 1 ? '' : 's'}: \`npm run lint\` lists them all)` : '';
    super(formatProblem(problems[0]!) + summary);
    this.problems = problems;
  }
}

/** `file:line:col message (rule)`, the file relative to the working directory when it lies below it. */
export function formatProblem(problem: ContractProblem): string {
  return `${problem.file}:${problem.line}:${problem.col} ${problem.message} (${problem.ruleId})`;
}

function displayedFile(absolutePath: string): string {
  const fromHere = relative(process.cwd(), absolutePath);
  return fromHere.startsWith('..') ? absolutePath : fromHere;
}

interface LintReport {
  problems: {
    ruleId: string;
    message: string;
    location: { source: { ref: string }; start?: { line: number; col: number } }[];
  }[];
}

/**
 * Every problem `redocly lint` finds in the contract at `root` (its openapi.yaml), with the
 * project's rules and plugin; unresolved `$ref`s first, since the other problems often follow from them.
 */
export async function lintContract(root: string = contractRoot): Promise<ContractProblem[]> {
  const redocly = join(projectRoot, 'node_modules', '.bin', 'redocly');
  const args = ['lint', resolve(root), '--config', join(projectRoot, 'redocly.yaml'), '--format=json'];
  // The linter exits 1 when it finds problems; its JSON report is on stdout either way.
  const { stdout, stderr } = await run(redocly, args, { cwd: projectRoot, maxBuffer: 64 * 1024 * 1024 }).catch(
    (error: { stdout?: string; stderr?: string }) => ({ stdout: error.stdout ?? '', stderr: error.stderr ?? '' }),
  );
  let report: LintReport;
  try {
    report = JSON.parse(stdout) as LintReport;
  } catch {
    const cause = stderr.split('\n').map((line) => line.trim()).filter(Boolean).at(-1) ?? 'no report';
    throw new ToolchainError(`redocly lint of ${displayedFile(resolve(root))} gave no report: ${cause}`);
  }
  const problems = report.problems.map(({ ruleId, message, location }) => {
    const [place] = location;
    return {
      file: place ? displayedFile(resolve(projectRoot, place.source.ref)) : displayedFile(resolve(root)),
      line: place?.start?.line ?? 1,
      col: place?.start?.col ?? 1,
      message,
      ruleId,
    };
  });
  const isUnresolvedRef = (problem: ContractProblem) => problem.ruleId === 'no-unresolved-refs';
  return [...problems.filter(isUnresolvedRef), ...problems.filter((problem) => !isUnresolvedRef(problem))];
}

/** Throws a ContractProblemsError naming the first problem when the contract at `root` does not lint clean. */
export async function assertContractLintsClean(root: string = contractRoot): Promise<void> {
  const problems = await lintContract(root);
  if (problems.length > 0) throw new ContractProblemsError(problems);
}
