/** `npm run docs`: writes the offline HTML reference of the contract to build/reference.html. */
import { buildReference } from './build-reference.ts';

const path = await buildReference();
console.log(`API reference written to ${path} (open it in a browser; it needs no network)`);
