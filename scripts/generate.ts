/** `npm run generate`: writes generated/ from the contract, once it lints clean. */
import { enableCompileCache } from 'node:module';

// openapi-typescript brings its own copy of Redocly's core: Node's on-disk compile cache makes every run after the first start faster.
enableCompileCache();
const { relative } = await import('node:path');
const { runEntryPoint } = await import('./entry-point.ts');
const { generateFiles } = await import('./generate-files.ts');
const { generatedDir } = await import('./paths.ts');

await runEntryPoint(
  { usage: 'npm run generate [-- --contract openapi/openapi.yaml --output generated]', writesOutput: true },
  async ({ contract, output }) => {
    const dir = output ?? generatedDir;
    await generateFiles(dir, contract);
    console.log(`${relative(process.cwd(), dir)}/ written from ${relative(process.cwd(), contract)}`);
  },
);
