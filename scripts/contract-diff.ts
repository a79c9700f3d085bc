/** `npm run contract:diff -- [--base REF]`: the breaking-change gate (scripts/contract-diff/). Exit 1 on an unallowed breaking change. */
import { runEntryPoint } from './entry-point.ts';
import { runGate } from './contract-diff/gate.ts';

await runEntryPoint(
  { usage: 'npm run contract:diff [-- --base REF --contract openapi/openapi.yaml]', writesOutput: false, ownOptions: ['base'] },
  async ({ contract, own }) => {
    const { report, failed } = await runGate({ contract, base: own.base, today: new Date() });
    console.log(report);
    if (failed) process.exitCode = 1;
  },
);
