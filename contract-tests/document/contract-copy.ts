/** A temporary copy of openapi/ with edits applied, for tests of what the toolchain says about a broken contract. */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectRoot } from '../../scripts/paths.ts';

/** Replaces the first occurrence of `from` by `to` in `file` (relative to openapi/). */
export interface ContractEdit {
  readonly file: string;
  readonly from: string;
  readonly to: string;
}

export interface ContractCopy {
  /** The folder holding the copied `openapi/`. */
  readonly dir: string;
  /** The copy's `openapi/openapi.yaml`. */
  readonly root: string;
  /** The 1-based line and column where an edit's replacement starts in the edited file. */
  positionOf(edit: ContractEdit): { line: number; col: number };
  remove(): Promise<void>;
}

/** Copies openapi/ into a temporary folder and applies `edits`; an edit whose text is missing fails loudly. */
export async function copyContract(edits: readonly ContractEdit[]): Promise<ContractCopy> {
  const dir = await mkdtemp(join(tmpdir(), 'contract-copy-'));
  await cp(join(projectRoot, 'openapi'), join(dir, 'openapi'), { recursive: true });
  const positions = new Map<ContractEdit, { line: number; col: number }>();
  for (const edit of edits) {
    const path = join(dir, 'openapi', edit.file);
    const text = await readFile(path, 'utf8');
    const at = text.indexOf(edit.from);
    if (at < 0) throw new Error(`${edit.file} no longer contains ${JSON.stringify(edit.from)}; update the test's edit`);
    await writeFile(path, text.slice(0, at) + edit.to + text.slice(at + edit.from.length));
    const before = text.slice(0, at).split('\n');
    positions.set(edit, { line: before.length, col: before.at(-1)!.length + 1 });
  }
  return {
    dir,
    root: join(dir, 'openapi', 'openapi.yaml'),
    positionOf: (edit) => positions.get(edit)!,
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}
