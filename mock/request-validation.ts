/**
 * Prism's request validation (`validateInput` of `@stoplight/prism-http`), with what depends on the
 * operation alone built once per operation instead of on every request.
 *
 * Prism rebuilds, per request, each parameter list's JSON Schema lookup, the index of its
 * parameters by name and their deserializers, and threads all of it through fp-ts and lodash
 * helpers: about as much time as the rest of a request. Here each operation's checks are prepared
 * once; per request are left only what the request decides: its values deserialized by Prism's
 * own deserializers, checked as Prism checks them (`prism-parameter-schema.ts`) and by Prism's own
 * body validator, in Prism's order (body, headers, query, path), with
 * Prism's diagnostics word for word. `request-validation.test.ts` holds Prism's `validateInput`
 * as the oracle over valid and one-mutation-invalid requests of every operation.
 */
import { createRequire } from 'node:module';
import type { IHttpRequest } from '@stoplight/prism-http';
import type { IHttpOperation, IHttpParam, IMediaTypeContent } from '@stoplight/types';
import { parameterSchemaCheck } from './prism-parameter-schema.ts';
import type { Diagnostic } from './validation-message.ts';

type Values = Record<string, unknown>;
type Deserializer = (name: string, parameters: Values, schema: unknown, explode: boolean) => unknown;
type Either<Left, Right> = { _tag: 'Left'; left: Left } | { _tag: 'Right'; right: Right };

// Prism's own modules, and its own copies of its dependencies, so every check is Prism's.
const prismRequire = createRequire(createRequire(import.meta.url).resolve('@stoplight/prism-http/package.json'));
const { validateBody } = prismRequire('./dist/validator/validators') as {
  validateBody: (body: unknown, contents: IMediaTypeContent[], context: number, mediaType?: string, boundary?: string, bundle?: unknown) => Either<Diagnostic[], unknown>;
};
const { parseMIMEHeader } = prismRequire('./dist/validator/validators/headers') as { parseMIMEHeader: (header: string) => [string | undefined, string] };
const { wildcardMediaTypeMatch } = prismRequire('./dist/validator/utils/wildcardMediaTypeMatch') as { wildcardMediaTypeMatch: (a: string, b: string) => boolean };
const deserializers = prismRequire('./dist/validator/deserializers') as Record<'header' | 'query' | 'path', Record<string, Deserializer>>;
const { ValidationContext } = prismRequire('./dist/validator/validators/types') as { ValidationContext: { Input: number } };
const { URI } = prismRequire('uri-template-lite') as { URI: { Template: new (template: string) => { match(path: string): Values | null } } };

const ERROR = 0;
const WARNING = 1;

/** One parameter as Prism's `validateParams` reads it: its key (lower case), deserializer, schema and `explode`. */
interface ParameterField {
  key: string;
  deserialize: Deserializer | undefined;
  schema: unknown;
  explode: boolean;
}

/** One list of parameters (headers, query or path), prepared as Prism prepares it on every call. */
interface ParameterList {
  prefix: 'header' | 'query' | 'path';
  /** The values' check against the JSON Schema Prism builds from the list (`createJsonSchemaFromParams`). */
  check: (values: Values) => Diagnostic[] | undefined;
  fields: ParameterField[];
  deprecated: IHttpParam[];
}

const DEFAULT_STYLE = { header: 'simple', query: 'form', path: 'simple' } as const;

/** Like lodash `keyBy` then `mapValues`: one entry per key, the last parameter of a key winning, in first-seen order. */
function byKey<Value>(params: readonly IHttpParam[], key: (param: IHttpParam) => string, value: (param: IHttpParam) => Value): Map<string, Value> {
  const entries = new Map<string, Value>();
  for (const param of params) entries.set(key(param), value(param));
  return entries;
}

function parameterList(prefix: ParameterList['prefix'], params: readonly IHttpParam[], bundle: unknown): ParameterList {
  const properties: Values = {};
  // lodash `pickBy`: parameters without a schema have no property.
  for (const [key, schema] of byKey(params, (param) => param.name.toLocaleLowerCase(), (param) => param.schema)) if (schema) properties[key] = schema;
  const schema = { type: 'object' as const, properties, required: params.filter((param) => param.required).map((param) => param.name.toLowerCase()) };
  const fields = [...byKey(params, (param) => param.name.toLowerCase(), (param) => param)].map(([key, param]): ParameterField => ({
    key,
    deserialize: deserializers[prefix][param.style || DEFAULT_STYLE[prefix]],
    schema: properties[key],
    explode: param.explode || false,
  }));
  return { prefix, check: parameterSchemaCheck(schema, bundle, prefix), fields, deprecated: params.filter((param) => param.deprecated) };
}

/** `target` with its keys in lower case, the last of equal keys winning (lodash `mapKeys`). */
function lowerCaseKeys(target: Values): Values {
  const lowered: Values = {};
  for (const key of Object.keys(target)) {
    const lower = key.toLowerCase();
    if (lower === '__proto__') Object.defineProperty(lowered, lower, { value: target[key], enumerable: true, configurable: true, writable: true });
    else lowered[lower] = target[key];
  }
  return lowered;
}

/**
 * Prism's `validateParams`: the list's diagnostics (schema errors, then deprecation warnings), or
 * undefined when none. `target` is null when the path does not fit the operation's template: lodash
 * reads it as no values.
 */
function checkParameters(list: ParameterList, target: Values | null): Diagnostic[] | undefined {
  const warnings: Diagnostic[] = [];
  for (const param of list.deprecated) {
    if ((target as Values)[param.name]) {
      warnings.push({ path: [list.prefix, param.name], code: 'deprecated', message: `${list.prefix[0]!.toUpperCase()}${list.prefix.slice(1)} param ${param.name} is deprecated`, severity: WARNING });
    }
  }
  const lowered = lowerCaseKeys(target ?? {});
  const values: Values = {};
  for (const field of list.fields) {
    const value = field.deserialize?.(field.key, lowered, field.schema, field.explode);
    // lodash `pickBy`: only truthy values are validated (so an empty value passes unchecked).
    if (value) values[field.key] = value;
  }
  const errors = list.check(values);
  if (errors) return [...errors, ...warnings];
  return warnings.length > 0 ? warnings : undefined;
}

/** Prism's `isMediaTypeSupportedInContents`. */
function supportedMediaType(mediaType: string | undefined, contents: IMediaTypeContent[] | undefined): boolean {
  if (mediaType == null || contents == null) return true;
  return contents.some((content) => !content.mediaType || wildcardMediaTypeMatch(mediaType, content.mediaType));
}

/** The headers Prism's body check reads, as `caseless(headers).get(name)` reads them (the last of names equal but for case), in one pass. */
function bodyHeaders(headers: Values): { contentType: string | undefined; contentLength: unknown } {
  let contentType: string | undefined;
  let contentLength: unknown;
  for (const name of Object.keys(headers)) {
    const lower = name.toLowerCase();
    if (lower === 'content-type') contentType = headers[name] as string;
    else if (lower === 'content-length') contentLength = headers[name];
  }
  return { contentType, contentLength };
}

/** Prism's `validateInputBody`: the body's diagnostics, or undefined when none. */
function checkBody(operation: IHttpOperation, bundle: unknown, body: unknown, headers: Values): Diagnostic[] | undefined {
  const spec = operation.request?.body;
  if (spec && spec.required && !body) return [{ code: 'required', message: 'Body parameter is required', severity: ERROR }];
  const { contentType, contentLength: lengthGiven } = bodyHeaders(headers);
  const [boundary, mediaType] = contentType ? parseMIMEHeader(contentType) : [undefined, undefined];
  const contentLength = parseInt(lengthGiven as string) || 0;
  if (contentLength !== 0 && !(spec && supportedMediaType(mediaType, spec.contents))) {
    const contents = spec?.contents ?? [];
    const message = contents.length > 0 ? `Supported content types: ${contents.map((content) => content.mediaType).join(',')}` : 'No supported content types, but request included a non-empty body';
    return [{ message, code: 415, severity: ERROR }];
  }
  if (body == null || !spec) return undefined;
  const validated = validateBody(body, spec.contents ?? [], ValidationContext.Input, mediaType, boundary, bundle);
  return validated._tag === 'Left' ? validated.left : undefined;
}

export type RequestValidator = (request: IHttpRequest) => Diagnostic[];

/** The operation's request validation, prepared once: a request's diagnostics as Prism's `validateInput` gives them, empty when valid. */
export function requestValidator(operation: IHttpOperation): RequestValidator {
  const { request } = operation;
  if (!request) return () => [];
  const bundle = (operation as { __bundled__?: unknown }).__bundled__;
  const headers = request.headers ? parameterList('header', request.headers, bundle) : undefined;
  const query = request.query ? parameterList('query', request.query, bundle) : undefined;
  const path = request.path ? parameterList('path', request.path, bundle) : undefined;
  const pathTemplate = request.path ? new URI.Template(operation.path) : undefined;
  return (input) => {
    const given = (input.headers ?? {}) as Values;
    // Each part is checked whatever the others found, as Prism does; their diagnostics follow in its order.
    const found = [
      checkBody(operation, bundle, input.body, given),
      headers && checkParameters(headers, given),
      query && checkParameters(query, (input.url.query ?? {}) as Values),
      path && checkParameters(path, pathTemplate!.match(input.url.path)),
    ];
    return found.flatMap((diagnostics) => diagnostics ?? []);
  };
}
