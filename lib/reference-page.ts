/**
 * The rendered reference the mock and the server serve at `/docs`: the page `npm run docs` builds,
 * built once and kept in node_modules/.cache, keyed by the SHA-256 of the bundled contract, the
 * build script and the Redocly version, so a changed contract renders anew and nothing is rebuilt
 * per request. A fresh clone builds it on the first request (about two seconds), with no extra step.
 */
import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { mkdir, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderReference } from '../scripts/build-reference.ts';
import { bundlePath, projectRoot } from '../scripts/paths.ts';

const CACHE_DIR = join(projectRoot, 'node_modules', '.cache', 'wsdq-reference');
const BUILD_SCRIPT = fileURLToPath(new URL('../scripts/build-reference.ts', import.meta.url));
const REDOCLY_MANIFEST = join(projectRoot, 'node_modules', '@redocly', 'cli', 'package.json');

async function cacheFile(): Promise<string> {
  const hash = createHash('sha256');
  for (const file of [bundlePath, BUILD_SCRIPT, REDOCLY_MANIFEST]) hash.update(await readFile(file));
  return join(CACHE_DIR, `reference-${hash.digest('hex').slice(0, 16)}.html`);
}

async function loadOrBuild(): Promise<Buffer> {
  const file = await cacheFile();
  try {
    return await readFile(file);
  } catch {
    await mkdir(CACHE_DIR, { recursive: true });
    // Built beside its final name and renamed: a concurrent reader never sees half a page.
    const partial = `${file}.${process.pid}.${Date.now()}.tmp.html`;
    try {
      await renderReference(partial);
      await rename(partial, file);
    } finally {
      await rm(partial, { force: true });
    }
    return readFile(file);
  }
}

let page: Promise<Buffer> | undefined;

/** The reference's HTML, from the cache or built once per process; a failed build is retried on the next call. */
export function referencePage(): Promise<Buffer> {
  page ??= loadOrBuild().catch((error: unknown) => {
    page = undefined;
    throw error;
  });
  return page;
}

/**
 * Answers a request for `/docs` with the reference page (HEAD: its headers), or, when it cannot be
 * built, 503 in plain text saying why. Returns the status sent.
 */
export async function sendReferencePage(response: ServerResponse, page: () => Promise<Buffer> = referencePage): Promise<number> {
  let html: Buffer;
  try {
    html = await page();
  } catch (error) {
    const text = `The API reference could not be built (${(error as Error).message.split('\n')[0]}). Run \`npm run docs\` to see why.\n`;
    response.writeHead(503, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(text), 'Retry-After': '5' });
    response.end(text);
    return 503;
  }
  response.writeHead(200, {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Length': html.length,
    'Cache-Control': 'no-cache',
    'X-Content-Type-Options': 'nosniff',
  });
  response.end(html);
  return 200;
}
