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

/**
 * Every change from the `base` bundle to the `head` bundle. A field added together with its
 * `required` mark (or removed with it) is one change, breaking if either part is.
 */
export function contractChanges(base: string, head: string): ContractChange[] {
  if (base === head) return [];
  const documents = { base: prepareForComparison(base), head: prepareForComparison(head) };
  const changes = libraryDiffs(documents.base, documents.head).flatMap((diff) => locate(diff, documents));
  const place = (change: ContractChange, kind: string) => `${change.operation.label}|${kind}|${change.at}`;
  const marks = new Map<string, ContractChange>();
  for (const change of changes) {
    const mark = /^(.*)-(required|optional)$/.exec(change.kind);
    if (mark) marks.set(place(change, `${mark[1]}-${mark[2] === 'required' ? 'added' : 'removed'}`), change);
  }
  const absorbed = new Set<ContractChange>();
  const merged = changes.map((change) => {
    const mark = marks.get(place(change, change.kind));
    if (!mark) return change;
    absorbed.add(mark);
    const detail = mark.kind.endsWith('-required') ? 'required' : change.detail;
    return { ...change, detail, breaking: change.breaking || mark.breaking };
  });
  return merged.filter((change) => !absorbed.has(change));
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
