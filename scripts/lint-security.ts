/**
 * `npm run lint`'s second linter: Spectral with the OWASP API Security ruleset (`.spectral.yaml`,
 * which also holds every waiver and its reason) over the bundled contract. Spectral reads the
 * bundle, not openapi/ itself: the contract's descriptions are Markdown files (`$ref: ./x.md`),
 * which Redocly inlines and Spectral would parse as YAML. The bundle is written below `build/`,
 * inside the ruleset's folder, because Spectral matches its per-path waivers (`overrides`) by a
 * path relative to the ruleset. `lintSecurity` is the whole lint of one contract, so tests run it
 * in-process; run as a script, this file parses the command line (runEntryPoint) and prints its answer.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { promisify } from 'node:util';
import { runEntryPoint } from './entry-point.ts';
import { ToolchainError } from './contract-problems.ts';
import { projectRoot } from './paths.ts';

const run = promisify(execFile);

/** The checked-in ruleset: the OWASP rules, then the waivers with one line of reason each. */
export const securityRuleset = join(projectRoot, '.spectral.yaml');

/** One finding of Spectral, as its JSON format gives it. */
export interface SecurityFinding {
  readonly code: string;
  readonly message: string;
  /** 0 error, 1 warning, 2 information, 3 hint. */
  readonly severity: number;
  /** Where in the bundle: `['components', 'schemas', 'CrawlRequest', 'properties', 'url']`. */
  readonly path: readonly (string | number)[];
}

const SEVERITY_NAMES = ['error', 'warning', 'info', 'hint'];

/**
 * The file of the split contract a bundle path comes from: `components.schemas.X…` is
 * `components/schemas/X.yaml`, `paths./web/jobs/{job_id}…` is `paths/web_jobs_{job_id}.yaml`
 * (the house layout, openapi/README.md); anything else, the root document.
 */
function sourceFileOf(contract: string, path: readonly (string | number)[]): string {
  const folder = dirname(contract);
  const [section, name, item] = path.map(String);
  const candidates = [
    section === 'components' && name && item ? join(folder, 'components', name, `${item}.yaml`) : undefined,
    section === 'paths' && name ? join(folder, 'paths', `${name.slice(1).replaceAll('/', '_')}.yaml`) : undefined,
    section === 'webhooks' && name ? join(folder, 'webhooks', `${name}.yaml`) : undefined,
  ];
  const file = candidates.find((candidate) => candidate !== undefined && existsSync(candidate)) ?? contract;
  const fromHere = relative(process.cwd(), file);
  return fromHere.startsWith('..') ? file : fromHere;
}

/** `openapi/components/schemas/CrawlRequest.yaml components.schemas.CrawlRequest.properties.url error Schema … (owasp:…)` */
export function formatFinding(contract: string, finding: SecurityFinding): string {
  const severity = SEVERITY_NAMES[finding.severity] ?? 'error';
  return `${sourceFileOf(contract, finding.path)} ${finding.path.join('.')} ${severity} ${finding.message} (${finding.code})`;
}

/** Every finding Spectral reports for the contract at `contract` (its openapi.yaml) with `.spectral.yaml`. */
export async function securityFindings(contract: string): Promise<SecurityFinding[]> {
  const buildDir = join(projectRoot, 'build');
  await mkdir(buildDir, { recursive: true });
  const dir = await mkdtemp(join(buildDir, 'spectral-'));
  try {
    const bundle = join(dir, 'openapi.json');
    const redocly = join(projectRoot, 'node_modules', '.bin', 'redocly');
    await run(redocly, ['bundle', contract, '--output', bundle, '--ext', 'json'], { cwd: projectRoot }).catch((error: { stderr?: string }) => {
      throw new ToolchainError(`redocly bundle of ${contract} failed: ${error.stderr?.trim().split('\n').at(-1) ?? 'no output'}`);
    });
    const spectral = join(projectRoot, 'node_modules', '.bin', 'spectral');
    const args = ['lint', bundle, '--ruleset', securityRuleset, '--format', 'json', '--fail-severity', 'hint', '--quiet'];
    // Spectral exits 1 when it finds anything; its JSON report is on stdout either way.
    const { stdout, stderr } = await run(spectral, args, { cwd: projectRoot, maxBuffer: 64 * 1024 * 1024 }).catch(
      (error: { stdout?: string; stderr?: string }) => ({ stdout: error.stdout ?? '', stderr: error.stderr ?? '' }),
    );
    try {
      return JSON.parse(stdout) as SecurityFinding[];
    } catch {
      throw new ToolchainError(`spectral lint gave no report: ${(stderr || stdout).trim().split('\n').at(-1) ?? 'no output'}`);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * The Spectral lint of the contract at `contract`: a line per finding on stdout, then exit 1 with the
 * count on stderr, or exit 0 with "no findings". A contract that cannot be bundled throws a ToolchainError.
 */
export async function lintSecurity(contract: string): Promise<{ exitCode: 0 | 1; stdout: string; stderr: string }> {
  const findings = await securityFindings(contract);
  const lines = findings.map((finding) => `${formatFinding(contract, finding)}\n`).join('');
  const ruleset = 'Spectral (OWASP API Security, .spectral.yaml)';
  if (findings.length === 0) return { exitCode: 0, stdout: `${ruleset}: no findings\n`, stderr: '' };
  const count = `${findings.length} finding${findings.length === 1 ? '' : 's'}`;
  return { exitCode: 1, stdout: lines, stderr: `${ruleset}: ${count}; fix each in the contract, or waive it in .spectral.yaml with its reason\n` };
}

if (import.meta.main) {
  await runEntryPoint(
    { usage: 'npm run lint (Redocly, then this: node scripts/lint-security.ts [--contract openapi/openapi.yaml])', writesOutput: false },
    async ({ contract }) => {
      const { exitCode, stdout, stderr } = await lintSecurity(contract);
      process.stdout.write(stdout);
      process.stderr.write(stderr);
      if (exitCode !== 0) process.exitCode = exitCode;
    },
  );
}
