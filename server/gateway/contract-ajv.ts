/**
 * The one Ajv the server checks its answers with, bodies (answer-validator.ts) and headers
 * (header-check.ts): the bundled contract under the id `contract`, its formats, every error
 * reported; each validator compiled at its first use.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { contractDocument } from '../../lib/contract-document.ts';
import { withContractFormats } from '../../lib/contract-formats.ts';

const ajv = withContractFormats(new Ajv2020({ strict: false, allErrors: true }));
// Added without checking it against the JSON Schema meta-schema: the document is OpenAPI, whose schemas sit
// under `components` and `paths`, which no meta-schema keyword reaches, so the check proved nothing and cost
// compiling the meta-schema (~0.5 s of each start). Redocly and Spectral check the contract (npm run lint).
ajv.addSchema(contractDocument, 'contract', undefined, false);
const compiled = new Map<string, ValidateFunction>();

/** The validator named `name`, compiled from `schema()` (its `$ref`s written `contract#/...`) the first time it is asked for. */
export function contractValidator(name: string, schema: () => object): ValidateFunction {
  let validate = compiled.get(name);
  if (!validate) {
    validate = ajv.compile(schema());
    compiled.set(name, validate);
  }
  return validate;
}
