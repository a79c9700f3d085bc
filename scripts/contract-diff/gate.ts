/** The breaking-change gate from bundles to verdict, with the clock injected so its Sunset rule can be tested. */
import { dirname, join, relative } from 'node:path';
import { readAllowFile } from './allow-file.ts';
import { bundledContracts, resolveBaseRef } from './base-contract.ts';
import type { ContractChange } from './change.ts';
import { renderChangelog, hasUnallowedBreaking } from './changelog.ts';
import { libraryDiffs, prepareForComparison } from './compare.ts';
import { locate } from './locate.ts';
import { judge, type Judgement } from './policy.ts';

/** The allow file of the contract whose root is `contract`: beside it. */
export const allowFileOf = (contract: string): string => join(dirname(contract), 'breaking-changes-allowed.yaml');

/** Every change from the `base` bundle to the `head` bundle, a field removed with its `required` mark counted once. */
export function contractChanges(base: string, head: string): ContractChange[] {
  if (base === head) return [];
  const documents = { base: prepareForComparison(base), head: prepareForComparison(head) };
  const changes = libraryDiffs(documents.base, documents.head).flatMap((diff) => locate(diff, documents));
  const key = (change: ContractChange, what: string) => `${change.operation.label}|${change.kind.replace(/-(added|removed|required|optional)$/, '')}-${what}|${change.at}`;
  const present = new Set(changes.map((change) => key(change, change.kind.split('-').at(-1)!)));
  return changes.filter(
    (change) =>
      !(change.kind.endsWith('-optional') && present.has(key(change, 'removed'))) &&
      !(change.kind.endsWith('-required') && present.has(key(change, 'added'))),
  );
}

export interface GateResult {
  readonly judgement: Judgement;
  readonly report: string;
  readonly failed: boolean;
}

/** Compares the contract at `contract` with its version at `base` (or the default base) and judges the changes on `today`. */
export async function runGate(options: { contract: string; base: string | undefined; today: Date }): Promise<GateResult> {
  const repo = dirname(options.contract);
  const base = await resolveBaseRef(repo, options.base);
  const allowFile = allowFileOf(options.contract);
  const [bundles, allowed] = await Promise.all([bundledContracts(options.contract, base), readAllowFile(allowFile)]);
  const judgement = judge(contractChanges(bundles.base, bundles.head), allowed, options.today);
  const fromHere = relative(process.cwd(), allowFile);
  const shownAllowFile = fromHere.startsWith('..') ? allowFile : fromHere;
  const header = `Contract changes since ${base.description} (${base.commit.slice(0, 12)}):`;
  return { judgement, report: renderChangelog(judgement, header, shownAllowFile), failed: hasUnallowedBreaking(judgement) };
}
