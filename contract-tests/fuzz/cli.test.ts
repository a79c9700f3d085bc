/** `npm run fuzz`'s command line: its options and their errors, and a short run end to end (seed printed first, summary last, exit code). */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parseFuzzCommand } from './cli.ts';

const run = promisify(execFile);

describe('npm run fuzz', () => {
  it('reads its options, with 1,000 requests and the given random seed by default', () => {
    expect(parseFuzzCommand(['--target', 'server'], 77)).toEqual({ target: 'server', requests: 1000, seed: 77, operations: undefined, url: undefined, key: undefined });
    expect(parseFuzzCommand(['--target', 'mock', '--requests', '50', '--seed', '3', '--operation', 'getJob', '--operation', 'listJobs'], 77))
      .toMatchObject({ target: 'mock', requests: 50, seed: 3, operations: ['getJob', 'listJobs'] });
  });

  const errors = [
    { args: [], message: '--target must be mock or server' },
    { args: ['--target', 'prod'], message: '--target must be mock or server, got "prod"' },
    { args: ['--target', 'mock', '--requests', '0'], message: '--requests must be an integer of at least 1, got "0"' },
    { args: ['--target', 'mock', '--seed', 'abc'], message: '--seed must be an integer of at least 0, got "abc"' },
    { args: ['--target', 'mock', '--operation', 'getJobs'], message: '--operation names no operation of the contract: getJobs' },
    { args: ['--target', 'server', '--url', 'http://127.0.0.1:3000/v1'], message: '--url with --target server needs --key' },
  ];
  for (const { args, message } of errors) {
    it(`refuses ${args.join(' ') || 'no options'}: ${message}`, () => {
      expect(() => parseFuzzCommand(args, 1)).toThrow(message);
    });
  }

  it('prints the seed first and the summary last, exit 0 when nothing fails; a bad option exits 2 with the usage', async () => {
    const { stdout } = await run(process.execPath, ['scripts/fuzz.ts', '--target', 'mock', '--requests', '20', '--seed', '5', '--operation', 'listJobs']);
    expect(stdout.split('\n')[0]).toBe('fuzz: seed 5 (repeat with --seed 5)');
    expect(stdout).toMatch(/fuzz: target mock, seed 5, \d+ requests, 0 failing requests\nrequests per operation:\n {2}listJobs {2}\d+\nfailures per check:\n {2}not_a_server_error +0\n/);
    const refused = await run(process.execPath, ['scripts/fuzz.ts', '--target', 'staging']).catch((error: { code: number; stderr: string }) => error);
    expect([(refused as { code: number }).code, (refused as { stderr: string }).stderr]).toEqual([2, '--target must be mock or server, got "staging"\nusage: npm run fuzz -- --target mock|server [--requests N] [--seed S] [--operation ID]... [--url URL --key KEY]\n']);
  }, 120_000);
});
