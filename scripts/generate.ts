/** `npm run generate`: writes generated/ from the contract, once it lints clean. */
import { relative } from 'node:path';
import { runEntryPoint } from './entry-point.ts';
import { generateFiles } from './generate-files.ts';
import { generatedDir } from './paths.ts';

await runEntryPoint(
  { usage: 'npm run generate [-- --contract openapi/openapi.yaml --output generated]', writesOutput: true },
  async ({ contract, output }) => {
    const dir = output ?? generatedDir;
    await generateFiles(dir, contract);
    console.log(`${relative(process.cwd(), dir)}/ written from ${relative(process.cwd(), contract)}`);
  },
);
