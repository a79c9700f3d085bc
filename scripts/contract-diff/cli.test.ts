/**
 * `npm run contract:diff` end to end, in a throwaway git repository holding a copy of the contract:
 * the base it picks, its changelog, its exit codes (0 pass, 1 unallowed breaking change, 2 usage),
 * the allow file and the Sunset rule. The gate's verdicts run in-process (contractDiff); the usage
 * errors run as `node scripts/contract-diff.ts`, which parses the options and prints a UsageError.
 */
import { execFile } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { contractDiff } from '../contract-diff.ts';
import { projectRoot } from '../paths.ts';

const run = promisify(execFile);
const gitEnv = { ...process.env, GIT_AUTHOR_NAME: 'Designer', GIT_AUTHOR_EMAIL: 'designer@example.com', GIT_COMMITTER_NAME: 'Designer', GIT_COMMITTER_EMAIL: 'designer@example.com' };

const scrape = 'paths/web_scrape.yaml';
const mobileParameter =
  '    - name: mobile\n      in: query\n      required: false\n      description: Fetch as a mobile device (mobile user agent and viewport). Default `false`.\n      schema:\n        type: boolean\n        default: false\n';
const monitor = 'paths/web_monitors_{monitor_id}.yaml';
const allowMobileRemoval = 'allowed:\n  - operation: scrapeWebPage\n    change: parameter-removed\n    at: query.mobile\n    reason: Mobile rendering is gone with the old fetcher; no key used it in 90 days.\n';

async function git(repo: string, ...args: string[]): Promise<string> {
  return (await run('git', ['-C', repo, ...args], { env: gitEnv })).stdout.trim();
}

async function edit(repo: string, file: string, from: string, to: string): Promise<void> {
  const path = join(repo, 'openapi', file);
  const text = await readFile(path, 'utf8');
  if (!text.includes(from)) throw new Error(`${file} no longer contains ${JSON.stringify(from)}; update the test`);
  await writeFile(path, text.replace(from, to));
}

async function commitAll(repo: string, message: string): Promise<void> {
  await git(repo, 'add', '-A');
  await git(repo, 'commit', '-q', '-m', message);
}

/** A repository on `main`: a README, then the contract, then a README change (so HEAD~1 holds the contract). */
async function contractRepository(): Promise<string> {
  const repo = await mkdtemp(join(tmpdir(), 'contract-diff-repo-'));
  await git(repo, 'init', '-q', '-b', 'main');
  await writeFile(join(repo, 'README.md'), 'A service.\n');
  await commitAll(repo, 'README');
  await cp(join(projectRoot, 'openapi'), join(repo, 'openapi'), { recursive: true });
  await commitAll(repo, 'The contract');
  await writeFile(join(repo, 'README.md'), 'A service with a contract.\n');
  await commitAll(repo, 'README says so');
  return repo;
}

const contractOf = (repo: string) => join(repo, 'openapi', 'openapi.yaml');

/** The gate on the contract of `repo` against its default base, in-process. */
async function gate(repo: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const { exitCode, stdout, stderr } = await contractDiff({ contract: contractOf(repo), base: undefined, today: new Date() });
  return { code: exitCode, stdout, stderr };
}

/** The gate as its own process, with `args` on its command line, as `npm run contract:diff` runs it. */
async function gateProcess(repo: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const command = [join(projectRoot, 'scripts', 'contract-diff.ts'), '--contract', contractOf(repo), ...args];
  return run(process.execPath, command, { cwd: projectRoot }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );
}

// Each case has a repository of its own (the template is only read) and waits on git and the gate
// (or its process): they run side by side, each asserting with its own `expect`. Side by side on a busy 2-core
// machine a case took up to 13 s (4.8 s alone): a guard of 60 s, not vitest's 30 s.
describe.concurrent('npm run contract:diff', { timeout: 60_000 }, () => {
  const repos: string[] = [];
  let template: string;
  beforeAll(async () => {
    template = await contractRepository();
    repos.push(template);
  });
  /**
   * A clone of the template repository, its history and working tree: the same repository as
   * contractRepository() builds, in one git process rather than seven (each a fork of this large worker).
   */
  const repository = async () => {
    const repo = await mkdtemp(join(tmpdir(), 'contract-diff-repo-'));
    repos.push(repo);
    await run('git', ['clone', '-q', '--shared', template, repo], { env: gitEnv });
    return repo;
  };
  afterAll(() => Promise.all(repos.map((repo) => rm(repo, { recursive: true, force: true }))));

  it('an unchanged contract on main is compared with the previous commit and passes, exit 0', async ({ expect }) => {
    const result = await gate(template);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Contract changes since the previous commit \(HEAD~1\) \([0-9a-f]{12}\):\nNo change to the contract\.\n$/);
  });

  it('a removed parameter in the working tree fails the gate, exit 1, with its operation, verdict and allow-file key', async ({ expect }) => {
    const repo = await repository();
    await edit(repo, scrape, mobileParameter, '');
    const result = await gate(repo);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('GET /web/scrape (scrapeWebPage)\n  BREAKING   parameter removed `query.mobile`  [parameter-removed at query.mobile]\n');
    expect(result.stdout).toContain('1 breaking change not allowed: within /v1 only additive changes pass.');
  });

  it('the same removal listed in the allow file with a reason passes, exit 0, printing the reason', async ({ expect }) => {
    const repo = await repository();
    await edit(repo, scrape, mobileParameter, '');
    await writeFile(join(repo, 'openapi', 'breaking-changes-allowed.yaml'), allowMobileRemoval);
    const result = await gate(repo);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      '  allowed    parameter removed `query.mobile`: Mobile rendering is gone with the old fetcher; no key used it in 90 days.  [parameter-removed at query.mobile]\n',
    );
    expect(result.stdout).toContain('No unallowed breaking change (0 additive, 1 allowed, 0 withdrawn).');
  });

  it('an allow-file entry that matches no change is reported as stale, exit 0', async ({ expect }) => {
    const repo = await repository();
    await writeFile(join(repo, 'openapi', 'breaking-changes-allowed.yaml'), allowMobileRemoval);
    await edit(repo, scrape, '    - name: mobile\n', '    - name: region\n      in: query\n      required: false\n      description: A region.\n      schema:\n        type: string\n        maxLength: 2\n    - name: mobile\n');
    const result = await gate(repo);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('  additive   parameter added `query.region` (optional)\n');
    expect(result.stdout).toContain('  stale: scrapeWebPage parameter-removed at query.mobile matches no breaking change; remove it from');
  });

  it('on a branch, the base is the merge base with main, whatever main did since', async ({ expect }) => {
    const repo = await repository();
    await git(repo, 'checkout', '-q', '-b', 'feature');
    await edit(repo, scrape, mobileParameter, '');
    await commitAll(repo, 'Drop mobile');
    const mergeBase = await git(repo, 'rev-parse', 'main');
    await git(repo, 'checkout', '-q', 'main');
    await writeFile(join(repo, 'README.md'), 'Main moved on.\n');
    await commitAll(repo, 'Main moves on');
    await git(repo, 'checkout', '-q', 'feature');
    const result = await gate(repo);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(new RegExp(`^Contract changes since the merge base with main \\(${mergeBase.slice(0, 12)}\\):`));
  });

  it('removing an operation the base deprecated passes once its x-sunset date has come, printing the date, exit 0', async ({ expect }) => {
    const repo = await repository();
    await edit(repo, monitor, 'delete:\n  operationId: deleteMonitor\n', "delete:\n  operationId: deleteMonitor\n  deprecated: true\n  x-sunset: '2000-01-01'\n");
    await commitAll(repo, 'Deprecate deleteMonitor');
    const text = await readFile(join(repo, 'openapi', monitor), 'utf8');
    await writeFile(join(repo, 'openapi', monitor), text.slice(0, text.indexOf('delete:\n')));
    await commitAll(repo, 'Withdraw deleteMonitor');
    const result = await gate(repo);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('DELETE /web/monitors/{monitor_id} (deleteMonitor)\n  withdrawn  operation removed: deprecated in the base, Sunset 2000-01-01 has come');
  });

  it('removing it before the x-sunset date the base promised fails, naming the date, exit 1', async ({ expect }) => {
    const repo = await repository();
    await edit(repo, monitor, 'delete:\n  operationId: deleteMonitor\n', "delete:\n  operationId: deleteMonitor\n  deprecated: true\n  x-sunset: '2999-01-01'\n");
    await commitAll(repo, 'Deprecate deleteMonitor');
    const text = await readFile(join(repo, 'openapi', monitor), 'utf8');
    await writeFile(join(repo, 'openapi', monitor), text.slice(0, text.indexOf('delete:\n')));
    await commitAll(repo, 'Withdraw deleteMonitor');
    const result = await gate(repo);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('  BREAKING   operation removed: withdrawn before its Sunset date 2999-01-01  [operation-removed]');
  });

  const usageCases = [
    { name: 'a --base that is no commit', args: ['--base', 'no-such-ref'], says: /^--base no-such-ref: no such commit in this repository\.\n$/ },
    { name: 'a --base without the contract', args: ['--base', 'HEAD~2'], says: /^HEAD~2 \([0-9a-f]{12}\) has no openapi\/: no contract to compare with\.\n$/ },
    { name: 'an unknown option', args: ['--against', 'main'], says: /Unknown option '--against'[\s\S]*usage: npm run contract:diff/ },
  ];

  it.for(usageCases)('$name is a usage error with a clear message, exit 2', async ({ args, says }, { expect }) => {
    const result = await gateProcess(template, ...args);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(says);
  });

  it('a shallow clone without the base commit says to fetch the history, exit 2, never a silent pass', async ({ expect }) => {
    const shallow = await mkdtemp(join(tmpdir(), 'contract-diff-shallow-'));
    repos.push(shallow);
    await run('git', ['clone', '-q', '--depth', '1', `file://${template}`, shallow], { env: gitEnv });
    const result = await gateProcess(shallow);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'No base commit to compare the contract with: HEAD has no parent in this clone. This clone is shallow: fetch its history (`git fetch --unshallow`) and run the gate again.\n',
    );
  });
});
