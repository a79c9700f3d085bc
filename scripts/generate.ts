/** `npm run generate`: writes generated/ from the contract. */
import { generateFiles } from './generate-files.ts';
import { generatedDir } from './paths.ts';

await generateFiles(generatedDir);
console.log(`generated/ written from openapi/`);
