/** `npm run docs`: writes the offline HTML reference of the contract to build/reference.html, once the contract lints clean. */
import { buildReference, referencePath } from './build-reference.ts';
import { runEntryPoint } from './entry-point.ts';

await runEntryPoint(
  { usage: 'npm run docs [-- --contract openapi/openapi.yaml --output build/reference.html]', writesOutput: true },
  async ({ contract, output }) => {
    const path = await buildReference(output ?? referencePath, contract);
    console.log(`API reference written to ${path} (open it in a browser; it needs no network)`);
  },
);
