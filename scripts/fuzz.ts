/** `npm run fuzz`: property-based fuzzing of the mock or the server from the contract (contract-tests/fuzz/). */
import { runFuzzCommand } from '../contract-tests/fuzz/cli.ts';

await runFuzzCommand(process.argv.slice(2));
