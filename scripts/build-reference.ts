/** Renders the contract as a single self-contained HTML reference (Redoc, scripts inlined). */
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { assertContractLintsClean } from './contract-problems.ts';
import { contractRoot, projectRoot } from './paths.ts';

const run = promisify(execFile);

/** Where `npm run docs` writes the reference. */
export const referencePath = join(projectRoot, 'build', 'reference.html');

/** Redocly's attribution in the menu ("API docs by …"), drawn here so the page loads no image. */
const ATTRIBUTION_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="16" viewBox="0 0 64 16"><text x="0" y="12" font-family="sans-serif" font-size="12" font-weight="600" fill="#227a88">Redocly</text></svg>`;

/**
 * Images Redoc's bundle loads from a CDN whatever the settings (its attribution logo, which no
 * option turns off), each replaced by an inline image: the page must render offline.
 */
const CDN_IMAGES = [
  'https://cdn.redoc.ly/redoc/logo-mini-full.svg',
  'https://cdn.redoc.ly/redoc/logo-mini.svg',
];

function inlineCdnImages(html: string): string {
  const inline = `data:image/svg+xml;base64,${Buffer.from(ATTRIBUTION_SVG).toString('base64')}`;
  return CDN_IMAGES.reduce((page, url) => page.replaceAll(url, inline), html);
}

/**
 * Writes the reference of the contract at `contract` to `outputPath`; it loads nothing from the
 * network. A contract that does not lint clean throws a ContractProblemsError instead.
 */
export async function buildReference(outputPath: string = referencePath, contract: string = contractRoot): Promise<string> {
  await assertContractLintsClean(contract);
  return renderReference(outputPath, contract);
}

/**
 * Writes the reference without linting first: for the page the server and the mock serve, whose
 * contract `npm test` already lints (linting again would cost its first `/docs` request a second).
 */
export async function renderReference(outputPath: string, contract: string = contractRoot): Promise<string> {
  const redocly = join(projectRoot, 'node_modules', '.bin', 'redocly');
  await run(
    redocly,
    [
      'build-docs',
      contract,
      '--inlineBundle',
      '--output',
      outputPath,
      '--title',
      'Web and Social Data Query Service — API reference',
      // Also off in redocly.yaml (telemetry: off); this one reaches the rendered page's own settings.
      '--openapi.disableTelemetry=true',
    ],
    { cwd: projectRoot },
  );
  await writeFile(outputPath, inlineCdnImages(await readFile(outputPath, 'utf8')));
  return outputPath;
}
