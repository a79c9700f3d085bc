/** scripts/engine-warnings.awk: `npm ci` on Node 20 printed about 30 EBADENGINE lines; setup shows one note instead. */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const filter = fileURLToPath(new URL('./engine-warnings.awk', import.meta.url));

function filtered(npmOutput: string): string {
  return execFileSync('awk', ['-f', filter], { input: npmOutput, env: { ...process.env, NODE_RUNNING_NPM: 'v20.20.2' }, encoding: 'utf8' });
}

const block = (name: string) => [
  'npm warn EBADENGINE Unsupported engine {',
  `npm warn EBADENGINE   package: '${name}',`,
  "npm warn EBADENGINE   required: { node: '^22.12.0 || ^24.0.0 || >=26.0.0' },",
  "npm warn EBADENGINE   current: { node: 'v20.20.2', npm: '11.19.1' }",
  'npm warn EBADENGINE }',
].join('\n');

describe('the install output of scripts/setup.sh', () => {
  it('npm ci on Node 20 printing a five-line EBADENGINE block per package is summed up in one note line', () => {
    const output = [block('vitest@5.1.1'), block('undici@8.12.4'), 'added 284 packages in 9s'].join('\n');
    expect(filtered(`${output}\n`)).toBe(
      'added 284 packages in 9s\nnote: npm ran on Node v20.20.2; these packages need a newer Node and run on the project\'s Node 24 (the node package) instead: vitest@5.1.1 undici@8.12.4\n',
    );
  });

  it('passes every other line through and adds no note when npm warned of no engine', () => {
    const output = 'npm warn deprecated glob@7.2.3: Glob versions prior to v9 are no longer supported\nadded 284 packages in 9s\n';
    expect(filtered(output)).toBe(output);
  });
});
