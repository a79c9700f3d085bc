/**
 * The contract's versioning policy (openapi/info-description.md, "Versioning"): `/v1` is the major
 * version and `info.version` a date label, so within /v1 only additive changes pass. A breaking
 * change passes only as
 * - a withdrawal of what the base already marked `deprecated: true`, once the `x-sunset` date it
 *   promised has come (a withdrawal before it, or of something deprecated with no date, breaks the
 *   promise); or
 * - an entry of the allow file, with its reason.
 */
import type { AllowEntry } from './allow-file.ts';
import { allows } from './allow-file.ts';
import type { ContractChange, JudgedChange, Verdict } from './change.ts';

/** The judged changes, and the allow file's entries that matched no breaking change (stale). */
export interface Judgement {
  readonly changes: readonly JudgedChange[];
  readonly staleEntries: readonly AllowEntry[];
}

/** `YYYY-MM-DD` of a day, in UTC. */
export const isoDay = (day: Date): string => day.toISOString().slice(0, 10);

function withdrawal(change: ContractChange, today: string): Verdict | undefined {
  const deprecated = change.deprecatedInBase;
  if (!deprecated) return undefined;
  if (!deprecated.sunset || !/^\d{4}-\d{2}-\d{2}$/.test(deprecated.sunset)) {
    return { status: 'breaking', why: 'deprecated without an `x-sunset` date (YYYY-MM-DD): no withdrawal date was promised' };
  }
  if (deprecated.sunset > today) return { status: 'breaking', why: `withdrawn before its Sunset date ${deprecated.sunset}` };
  return { status: 'withdrawn', sunset: deprecated.sunset };
}

/** Applies the versioning policy and the allow file to `changes`, on `today`. */
export function judge(changes: readonly ContractChange[], allowed: readonly AllowEntry[], today: Date): Judgement {
  const used = new Set<AllowEntry>();
  const judged = changes.map((change): JudgedChange => {
    if (!change.breaking) return { ...change, verdict: { status: 'additive' } };
    const withdrawn = withdrawal(change, isoDay(today));
    if (withdrawn?.status === 'withdrawn') return { ...change, verdict: withdrawn };
    const entry = allowed.find((candidate) => allows(candidate, change));
    if (entry) {
      used.add(entry);
      return { ...change, verdict: { status: 'allowed', reason: entry.reason } };
    }
    return { ...change, verdict: withdrawn ?? { status: 'breaking' } };
  });
  return { changes: judged, staleEntries: allowed.filter((entry) => !used.has(entry)) };
}
