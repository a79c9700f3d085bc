/**
 * The in-process bundler the breaking-change gate uses gives what the Redocly CLI gives: the same
 * JSON text, byte for byte, for this contract (what `npm run generate` writes to
 * generated/openapi.json), and a refusal naming the place of an unresolved `$ref`, where the CLI
 * says "bundle not created".
 */
import { describe, expect, it } from 'vitest';
import { copyContract } from '../contract-tests/document/contract-copy.ts';
import { bundleContractInProcess } from './contract-bundle.ts';
import { ContractProblemsError } from './contract-problems.ts';
import { bundleContract } from './generate-files.ts';
import { contractRoot } from './paths.ts';

describe('the in-process contract bundler', () => {
  it("bundles this contract to the Redocly CLI's JSON text, byte for byte", async () => {
    const [inProcess, cli] = await Promise.all([bundleContractInProcess(contractRoot), bundleContract(contractRoot)]);
    expect(inProcess).toBe(cli);
  });

  it('refuses a contract with an unresolved $ref, naming its file, line and column, as the CLI refuses to bundle it', async () => {
    const broken = { file: 'paths/web_scrape.yaml', from: '$ref: ../components/responses/ServiceUnavailable.yaml', to: '$ref: ../components/responses/Nope.yaml' };
    const copy = await copyContract([broken]);
    try {
      const { line, col } = copy.positionOf(broken);
      const [inProcess, cli] = await Promise.allSettled([bundleContractInProcess(copy.root), bundleContract(copy.root)]);
      expect(cli.status).toBe('rejected');
      expect(inProcess.status).toBe('rejected');
      const error = (inProcess as PromiseRejectedResult).reason as ContractProblemsError;
      expect(error).toBeInstanceOf(ContractProblemsError);
      expect(error.problems[0]).toMatchObject({ file: copy.root.replace(/openapi\.yaml$/, broken.file), line, col, ruleId: 'bundler' });
      expect(error.problems[0]!.message).toMatch(/^Can't resolve \$ref/);
    } finally {
      await copy.remove();
    }
  });
});
