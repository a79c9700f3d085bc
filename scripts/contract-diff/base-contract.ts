/**
 * The two contracts the gate compares, bundled: the one at a git ref (the base) and the working
 * tree's. The base is found as CI and a designer expect it: `--base REF` when given, else the merge
 * base with the main branch, else (on main itself, where the merge base is HEAD) the previous commit.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative } from 'node:path';
import { promisify } from 'node:util';
import { UsageError } from '../contract-problems.ts';
import { bundleContractInProcess } from '../contract-bundle.ts';

const run = promisify(execFile);

/** The commit the gate compares with, and why that one. */
export interface BaseRef {
  readonly commit: string;
  readonly description: string;
}

async function git(repo: string, args: readonly string[]): Promise<string | undefined> {
  return run('git', ['-C', repo, ...args]).then(
    ({ stdout }) => stdout.trim(),
    () => undefined,
  );
}

async function commitOf(repo: string, ref: string): Promise<string | undefined> {
  return git(repo, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
}

async function shallowHint(repo: string): Promise<string> {
  return (await git(repo, ['rev-parse', '--is-shallow-repository'])) === 'true'
    ? ' This clone is shallow: fetch its history (`git fetch --unshallow`) and run the gate again.'
    : '';
}

/** Resolves `requested` (or the default base) in the repository holding `repo`; an unusable base is a UsageError (exit 2). */
export async function resolveBaseRef(repo: string, requested: string | undefined): Promise<BaseRef> {
  if ((await git(repo, ['rev-parse', '--show-toplevel'])) === undefined) {
    throw new UsageError(`${repo} is not in a git repository: the gate compares the contract with its version at a commit.`);
  }
  if (requested !== undefined) {
    const commit = await commitOf(repo, requested);
    if (!commit) throw new UsageError(`--base ${requested}: no such commit in this repository.${await shallowHint(repo)}`);
    return { commit, description: requested };
  }
  const head = await commitOf(repo, 'HEAD');
  const main = (await commitOf(repo, 'main')) ? 'main' : (await commitOf(repo, 'origin/main')) ? 'origin/main' : undefined;
  const mergeBase = main && head ? await git(repo, ['merge-base', 'HEAD', main]) : undefined;
  if (mergeBase && mergeBase !== head) return { commit: mergeBase, description: `the merge base with ${main}` };
  const previous = await commitOf(repo, 'HEAD~1');
  if (previous) return { commit: previous, description: 'the previous commit (HEAD~1)' };
  const hint = await shallowHint(repo);
  throw new UsageError(
    hint
      ? `No base commit to compare the contract with: HEAD has no parent in this clone.${hint}`
      : 'No base commit to compare the contract with: HEAD is the first commit. Pass --base REF.',
  );
}

/** The bundled contract at `base` and in the working tree, for the contract whose root file is `contract`. */
export async function bundledContracts(contract: string, base: BaseRef): Promise<{ base: string; head: string }> {
  const contractDir = await realpath(dirname(contract));
  const top = (await git(contractDir, ['rev-parse', '--show-toplevel']))!;
  const folder = relative(await realpath(top), contractDir) || '.';
  const work = await mkdtemp(join(tmpdir(), 'contract-diff-'));
  try {
    const archive = join(work, 'base.tar');
    const archived = await git(contractDir, ['-C', top, 'archive', '--format=tar', `--output=${archive}`, base.commit, '--', folder]);
    if (archived === undefined) {
      throw new UsageError(`${base.description} (${base.commit.slice(0, 12)}) has no ${folder}/: no contract to compare with.`);
    }
    const [baseDir, headDir] = [join(work, 'base'), join(work, 'head')];
    await Promise.all([mkdir(baseDir), mkdir(headDir)]);
    await run('tar', ['-xf', archive, '-C', baseDir]);
    const [baseBundle, headBundle] = await Promise.all([
      bundleContractInProcess(join(baseDir, folder, basename(contract))),
      bundleContractInProcess(contract),
    ]);
    return { base: baseBundle, head: headBundle };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
