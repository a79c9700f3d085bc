/**
 * The formats the contract uses, for every Ajv that validates against it: ajv-formats' (full mode,
 * as the server's validator checks them) and OpenAPI's `int32` and `int64`, which ajv-formats does
 * not know (Ajv would ignore them, with a warning for each schema that names one).
 */
import type { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020, options: { mode: 'full' }) => Ajv2020;
const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;

export function withContractFormats(ajv: Ajv2020): Ajv2020 {
  addFormats(ajv, { mode: 'full' });
  ajv.addFormat('int32', { type: 'number', validate: (value: number) => Number.isInteger(value) && value >= INT32_MIN && value <= INT32_MAX });
  ajv.addFormat('int64', { type: 'number', validate: (value: number) => Number.isInteger(value) });
  return ajv;
}
