/** The gate's report: the changes grouped by operation, each with its verdict and the allow-file key that names it. */
import type { JudgedChange, Verdict } from './change.ts';
import type { Judgement } from './policy.ts';

const marks: Record<Verdict['status'], string> = {
  breaking: 'BREAKING ',
  allowed: 'allowed  ',
  withdrawn: 'withdrawn',
  additive: 'additive ',
};

function line(change: JudgedChange): string {
  const { verdict } = change;
  const what = [change.kind.replace(/-/g, ' '), change.at && `\`${change.at}\``, change.detail && `(${change.detail})`].filter(Boolean).join(' ');
  const why =
    verdict.status === 'breaking' && verdict.why ? `: ${verdict.why}`
    : verdict.status === 'allowed' ? `: ${verdict.reason}`
    : verdict.status === 'withdrawn' ? `: deprecated in the base, Sunset ${verdict.sunset} has come`
    : '';
  const key = verdict.status === 'additive' ? '' : `  [${change.kind}${change.at ? ` at ${change.at}` : ''}]`;
  return `  ${marks[verdict.status]}  ${what}${why}${key}`;
}

/** One line for the same change under several statuses (the shared error answers): `400, 401, 500 error.code`. */
function acrossStatuses(changes: readonly JudgedChange[]): JudgedChange[] {
  const groups = new Map<string, JudgedChange[]>();
  for (const change of changes) {
    const [status, ...field] = change.at.split(' ');
    const key = field.length && /^\d{3}$/.test(status!) ? `${change.kind}|${field.join(' ')}|${change.detail}|${JSON.stringify(change.verdict)}` : `${groups.size}`;
    groups.set(key, [...(groups.get(key) ?? []), change]);
  }
  return [...groups.values()].map((group) =>
    group.length === 1 ? group[0]! : { ...group[0]!, at: `${group.map((change) => change.at.split(' ')[0]).join(', ')} ${group[0]!.at.split(' ').slice(1).join(' ')}` },
  );
}

/** True when a change breaks clients and neither the policy nor the allow file lets it pass: the gate exits 1. */
export const hasUnallowedBreaking = (judgement: Judgement): boolean => judgement.changes.some((change) => change.verdict.status === 'breaking');

/** The report, ready to print: header, one block per operation, stale allow entries, verdict. */
export function renderChangelog(judgement: Judgement, header: string, allowFile: string): string {
  const byOperation = new Map<string, JudgedChange[]>();
  for (const change of judgement.changes) {
    const title = `${change.operation.label} (${change.operation.operationId})`;
    byOperation.set(title, [...(byOperation.get(title) ?? []), change]);
  }
  const blocks = [...byOperation.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([title, changes]) => [title, ...[...new Set(acrossStatuses(changes).map(line))]].join('\n'));
  const stale = judgement.staleEntries.map(
    (entry) => `  stale: ${entry.operation} ${entry.change}${entry.at ? ` at ${entry.at.join(', ')}` : ''} matches no breaking change; remove it from ${allowFile}`,
  );
  const count = (status: Verdict['status']) => judgement.changes.filter((change) => change.verdict.status === status).length;
  const breaking = count('breaking');
  const verdict =
    judgement.changes.length === 0 ? 'No change to the contract.'
    : breaking > 0
      ? `${breaking} breaking change${breaking === 1 ? '' : 's'} not allowed: within /v1 only additive changes pass. Deprecate first (deprecated: true and x-sunset), or list it in ${allowFile} with a reason.`
      : `No unallowed breaking change (${count('additive')} additive, ${count('allowed')} allowed, ${count('withdrawn')} withdrawn).`;
  return [header, ...blocks, ...(stale.length ? ['Allow file:', ...stale] : []), verdict].join('\n');
}
