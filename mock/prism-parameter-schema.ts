/**
 * Prism's check of a request's parameters against their JSON Schema (`validateAgainstSchema` of
 * `@stoplight/prism-http`, coercing, for a request), without its fp-ts plumbing, which cost more
 * than Ajv's validation itself: an Ajv instance made as Prism makes its own (same Ajv, options and
 * formats, its `date-time`), the schema compiled once, and Ajv's errors in Prism's words
 * (its `convertAjvErrors`). `request-validation.test.ts` holds Prism's `validateInput` as the oracle.
 */
import { createRequire } from 'node:module';
import type { Diagnostic } from './validation-message.ts';

type AjvError = { instancePath: string; keyword: string; message?: string; params: Record<string, unknown> };
type ValidateFunction = ((data: unknown) => boolean) & { errors?: AjvError[] | null };
interface AjvInstance {
  compile(schema: object): ValidateFunction;
  addFormat(name: string, format: unknown): unknown;
}

// Prism's own copies of Ajv, its formats and its `date-time`, so the check is Prism's.
const prismRequire = createRequire(createRequire(import.meta.url).resolve('@stoplight/prism-http/package.json'));
const Ajv = (prismRequire('ajv') as { default: new (options: object) => AjvInstance }).default;
const addFormats = (prismRequire('ajv-formats') as { default: (ajv: AjvInstance) => void }).default;
const { fmtDef, date_time: dateTime, compareDateTime } = prismRequire('./dist/validator/validators/dateTime') as Record<string, (...args: unknown[]) => unknown>;
const { convertAjvErrors } = prismRequire('./dist/validator/validators/utils') as {
  convertAjvErrors: (errors: AjvError[], severity: number, context: number, prefix: string) => Diagnostic[];
};
const { ValidationContext } = prismRequire('./dist/validator/validators/types') as { ValidationContext: { Input: number } };

const ERROR = 0;

/** Prism's Ajv for a schema without `$schema`, coercing (its `createAjvInstances`): its warnings of unknown formats silenced. */
function prismCoercingAjv(): AjvInstance {
  const logger = {
    warn(...args: unknown[]) {
      if (typeof args[0] === 'string' && args[0].startsWith('unknown format')) return;
      console.warn(...args);
    },
    log: console.log,
    error: console.error,
  };
  const ajv = new Ajv({ allErrors: true, allowUnionTypes: true, allowMatchingProperties: true, strict: false, logger, coerceTypes: true });
  addFormats(ajv);
  ajv.addFormat('date-time', fmtDef!(dateTime, compareDateTime));
  return ajv;
}

let ajv: AjvInstance | undefined;

/**
 * The check of a parameter list's values against `schema` (built by the mock, without `$schema`):
 * Prism's diagnostics, or undefined when none. Compiled on first use, as Prism compiles it; a
 * schema Ajv cannot compile, or a validation that throws, finds nothing, as in Prism.
 */
export function parameterSchemaCheck(schema: object, bundle: unknown, prefix: string): (values: Record<string, unknown>) => Diagnostic[] | undefined {
  let validate: ValidateFunction | null | undefined;
  return (values) => {
    if (validate === undefined) {
      try {
        validate = (ajv ??= prismCoercingAjv()).compile({ ...schema, __bundled__: bundle });
      } catch {
        validate = null;
      }
    }
    if (!validate) return undefined;
    try {
      validate(values);
    } catch {
      return undefined;
    }
    return validate.errors && validate.errors.length > 0 ? convertAjvErrors(validate.errors, ERROR, ValidationContext.Input, prefix) : undefined;
  };
}
