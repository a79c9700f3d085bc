/** `npm run check:generated`: fails when generated/ differs from what `npm run generate` writes now. */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runEntryPoint } from './entry-point.ts';
import { generateFiles } from './generate-files.ts';
import { generatedDir } from './paths.ts';

/** Names the files of generated/ that are missing, extra or different from a fresh generation from `contract`. */
async function staleGeneratedFiles(contract: string): Promise<string[]> {
  const fresh = await mkdtemp(join(tmpdir(), 'generated-'));
  try {
    await generateFiles(fresh, contract);
    const expected = (await readdir(fresh)).sort();
    const actual = (await readdir(generatedDir).catch(() => [])).filter((name) => name !== 'README.md').sort();
    const stale: string[] = [];
    for (const name of new Set([...expected, ...actual])) {
      if (!expected.includes(name)) stale.push(`${name} (not generated any more)`);
      else if (!actual.includes(name)) stale.push(`${name} (missing)`);
      else if ((await readFile(join(fresh, name), 'utf8')) !== (await readFile(join(generatedDir, name), 'utf8'))) {
        stale.push(`${name} (differs)`);
      }
    }
    return stale;
  } finally {
    await rm(fresh, { recursive: true, force: true });
  }
}

await runEntryPoint({ usage: 'npm run check:generated [-- --contract openapi/openapi.yaml]', writesOutput: false }, async ({ contract }) => {
  const stale = await staleGeneratedFiles(contract);
  if (stale.length > 0) {
    console.error(`generated/ is stale; run \`npm run generate\` and commit the result:\n  ${stale.join('\n  ')}`);
    process.exitCode = 1;
    return;
  }
  console.log('generated/ is up to date with openapi/');
});
