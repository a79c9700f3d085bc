/** The run's summary as text: the seed, requests per operation, failures per check, then each failure with its `curl` line. */
import { CHECK_NAMES } from './checks.ts';
import type { FuzzReport } from './run.ts';

function table(rows: [string, number][]): string[] {
  const width = Math.max(...rows.map(([name]) => name.length));
  return rows.map(([name, count]) => `  ${name.padEnd(width)}  ${count}`);
}

/** The report as printed by `npm run fuzz`. */
export function formatReport(report: FuzzReport): string {
  const lines = [
    `fuzz: target ${report.target}, seed ${report.seed}, ${report.requests} requests, ${report.failures.length} failing ${report.failures.length === 1 ? 'request' : 'requests'}`,
    'requests per operation:',
    ...table(Object.entries(report.requestsPerOperation)),
    'failures per check:',
    ...table(CHECK_NAMES.map((name) => [name, report.failuresPerCheck[name]])),
  ];
  for (const failure of report.failures) {
    lines.push('', `FAILED ${failure.operationId} (${failure.intent}${failure.request.mutation ? `: ${failure.request.mutation}` : ''}), answered ${failure.status ?? 'nothing'}`);
    for (const one of failure.failures) lines.push(`  ${one.check}: ${one.message}`);
    for (const setup of failure.setup) lines.push(`  first: ${setup}`);
    lines.push(`  ${failure.curl}`);
    lines.push(`  again: npm run fuzz -- --target ${report.target} --seed ${report.seed} --operation ${failure.operationId}`);
  }
  return lines.join('\n');
}
