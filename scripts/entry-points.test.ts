/**
 * `npm run generate`, `npm run docs` and `npm run check:generated` against a contract with a broken
 * `$ref`: each stops at the linter's first problem, one `file:line:col message` line, exit 1, with
 * no stack trace and nothing written. Before, docs exited 0 and generate printed a 45-line stack.
 */
import { execFile } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { copyContract, type ContractCopy } from '../contract-tests/document/contract-copy.ts';
import { projectRoot } from './paths.ts';

const run = promisify(execFile);

/** A misspelt schema file: the linter finds it, and three more problems that follow from it. */
const brokenRef = {
  file: 'paths/web_jobs_{job_id}.yaml',
  from: '$ref: ../components/schemas/GetJobResponse.yaml',
  to: '$ref: ../components/schemas/GetJobRespnse.yaml',
};

const entryPoints = [
  { command: 'npm run docs', script: 'docs.ts', writes: true },
  { command: 'npm run generate', script: 'generate.ts', writes: true },
  { command: 'npm run check:generated', script: 'check-generated.ts', writes: false },
];

// Every case is a process of its own (the broken copy is only read, each writes into a folder of its
// own): the cases of both blocks run side by side, each asserting with its own `expect`. Side by side
// on a busy 2-core machine a case took up to 16 s (3.7 s alone): a guard of 60 s, not vitest's 30 s.
const SIDE_BY_SIDE = { timeout: 60_000 };

describe.concurrent('a broken $ref stops the toolchain at the first problem', SIDE_BY_SIDE, () => {
  let copy: ContractCopy;

  beforeAll(async () => {
    copy = await copyContract([brokenRef]);
  });
  afterAll(() => copy?.remove());

  it.for(entryPoints)('a broken schema reference stops $command with one file:line:col line naming it, exit 1, no stack trace', async ({ script, writes }, { expect }) => {
    const output = join(copy.dir, `output-of-${script}`);
    const args = [join(projectRoot, 'scripts', script), '--contract', copy.root, ...(writes ? ['--output', output] : [])];
    const result = await run(process.execPath, args, { cwd: projectRoot }).then(
      () => ({ code: 0, stdout: '', stderr: '' }),
      (error: { code: number; stdout: string; stderr: string }) => error,
    );

    expect(result.code).toBe(1);
    const positioned = `${result.stdout}${result.stderr}`.split('\n').filter((line) => /:\d+:\d+ /.test(line));
    const file = join(copy.dir, 'openapi', brokenRef.file);
    const { line, col } = copy.positionOf(brokenRef);
    expect(positioned).toEqual([
      `${file}:${line}:${col} Can't resolve $ref: ENOENT: no such file or directory '${join(copy.dir, 'openapi/components/schemas/GetJobRespnse.yaml')}' (no-unresolved-refs)`,
    ]);
    expect(result.stderr).not.toMatch(/^\s+at /m);
    expect(result.stderr).toContain('`npm run lint` lists them all');
    if (writes) await expect(readdir(output)).rejects.toThrow(/ENOENT/);
  });
});

describe.concurrent('the options of the toolchain entry points', SIDE_BY_SIDE, () => {
  const cases = [
    { name: 'an unknown option prints the usage, exit 2', script: 'check-generated.ts', args: ['--output', 'x'], code: 2, stream: 'stderr', says: /^usage: npm run check:generated/m },
    { name: '--help prints the usage, exit 0', script: 'generate.ts', args: ['--help'], code: 0, stream: 'stdout', says: /^usage: npm run generate/m },
    {
      name: 'a --contract that does not exist says so in one line, exit 1',
      script: 'docs.ts',
      args: ['--contract', '/nonexistent/openapi.yaml'],
      code: 1,
      stream: 'stderr',
      says: /^redocly lint of \/nonexistent\/openapi.yaml gave no report: Please provide a valid path.\n$/,
    },
  ] as const;

  it.for(cases)('$name', async ({ script, args, code, stream, says }, { expect }) => {
    const result = await run(process.execPath, [join(projectRoot, 'scripts', script), ...args], { cwd: projectRoot }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    expect(result.code).toBe(code);
    expect(result[stream]).toMatch(says);
  });
});
