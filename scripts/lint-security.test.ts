/**
 * `npm run lint`'s Spectral step (OWASP API Security, `.spectral.yaml`) bites: a contract that
 * loses what the ruleset asks for fails it, exit 1, with a line naming the file, the place, the
 * rule and what is missing. Before, `npm run lint` ran Redocly alone, which accepts both edits.
 * The first case runs in-process (lintSecurity), the second as `node scripts/lint-security.ts`.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, describe, it } from 'vitest';
import { copyContract, type ContractCopy, type ContractEdit } from '../contract-tests/document/contract-copy.ts';
import { lintSecurity } from './lint-security.ts';
import { projectRoot } from './paths.ts';

const run = promisify(execFile);

const cases: { name: string; edit: ContractEdit; line: string; asProcess?: true }[] = [
  {
    name: 'a request string that lost its maxLength (the cursor) fails the lint, naming the parameter',
    edit: { file: 'components/parameters/Cursor.yaml', from: '  maxLength: 512\n', to: '' },
    line: 'openapi/components/parameters/Cursor.yaml components.parameters.Cursor.schema error Schema of type string must specify maxLength, enum, or const. (owasp:api4:2023-string-limit)',
  },
  {
    name: 'a 200 that lost its RateLimit field (listJobs) fails the lint, naming the answer',
    edit: { file: 'paths/web_jobs.yaml', from: '        RateLimit:\n          $ref: ../components/headers/RateLimit.yaml\n', to: '' },
    line: 'openapi/paths/web_jobs.yaml paths./web/jobs.get.responses.200.headers error All 2XX and 4XX responses should define rate limiting headers. (owasp:api4:2023-rate-limit)',
    asProcess: true,
  },
];

describe("npm run lint's Spectral step", () => {
  const copies: ContractCopy[] = [];
  afterAll(() => Promise.all(copies.map((copy) => copy.remove())));

  // Each case lints a copy of its own in processes of its own (Redocly, then Spectral): side by side.
  it.concurrent.for(cases)('$name', { timeout: 60_000 }, async ({ edit, line, asProcess }, { expect }) => {
    const copy = await copyContract([edit]);
    copies.push(copy);
    const result = asProcess
      ? await run(process.execPath, ['scripts/lint-security.ts', '--contract', copy.root], { cwd: projectRoot }).then(
          ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
          (error: { code: number; stdout: string; stderr: string }) => error,
        )
      : await lintSecurity(copy.root).then(({ exitCode, stdout, stderr }) => ({ code: exitCode, stdout, stderr }));

    expect(result.code).toBe(1);
    expect(result.stdout.trim().split('\n')).toEqual([`${copy.dir}/${line}`]);
    expect(result.stderr).toContain('1 finding; fix each in the contract, or waive it in .spectral.yaml with its reason');
  });
});
