/**
 * Which of the contract's media types a request's `Content-Type` selects, matched as
 * express-openapi-validator matched it (its equivalence test keeps it so): the type with its
 * parameters, then the bare type, then wildcards; no match refuses the body with 415.
 */
interface ContentType {
  /** Lower-cased type and subtype, such as `application/json`; null without a `Content-Type`. */
  mediaType: string | null;
  parameters: Record<string, string>;
}

const PARAMETER = /;\s*([^=]+)=([^;]+)/g;

function parseContentType(text: string | undefined): ContentType {
  const parameters: Record<string, string> = {};
  if (!text) return { mediaType: null, parameters };
  for (const [, name, value] of text.matchAll(PARAMETER)) {
    const key = name!.toLowerCase();
    parameters[key] = key === 'charset' ? value!.toLowerCase() : value!;
  }
  return { mediaType: text.split(';')[0]!.toLowerCase().trim(), parameters };
}

/** The type and its sorted parameters but `excluded`, or undefined without a type. */
function normalize({ mediaType, parameters }: ContentType, excluded: readonly string[] = ['boundary']): string | undefined {
  if (!mediaType) return undefined;
  const written = Object.keys(parameters).sort().filter((key) => !excluded.includes(key)).map((key) => `; ${key}=${parameters[key]}`);
  return mediaType + written.join('');
}

/** The request's type, bare, and with `charset=utf-8` when it names no charset. */
function equivalents(contentType: ContentType): ContentType[] {
  if (!contentType.mediaType) return [];
  const bare = parseContentType(contentType.mediaType);
  return contentType.parameters.charset ? [bare] : [bare, parseContentType(`${normalize(contentType, ['charset'])}; charset=utf-8`)];
}

export type MediaTypeChoice = { kind: 'media-type'; mediaType: string } | { kind: 'no-body' } | { kind: 'unsupported' };

/** The contract media type (of `mediaTypes`) that `header` selects; `no-body` for a call without `Content-Type` to an optional body. */
export function chooseMediaType(header: string | undefined, mediaTypes: readonly string[], bodyOptional: boolean): MediaTypeChoice {
  const requested = parseContentType(header);
  const wanted = normalize(requested);
  const exact = mediaTypes.find((type) => normalize(parseContentType(type)) === wanted && wanted !== undefined);
  if (exact) return { kind: 'media-type', mediaType: exact };
  const alternatives = equivalents(requested).map((type) => normalize(type));
  const equivalent = mediaTypes.find((type) => alternatives.includes(normalize(parseContentType(type))));
  if (equivalent) return { kind: 'media-type', mediaType: equivalent };
  for (const type of [...mediaTypes].sort().reverse()) {
    if (type === '*/*') return { kind: 'media-type', mediaType: type };
    if (!/^[a-z]+\/\*$/.test(type)) continue;
    if (new RegExp(`^${type.split('/', 1)[0]}/.+$`).test(wanted ?? 'undefined')) return { kind: 'media-type', mediaType: type };
  }
  return wanted === undefined && bodyOptional ? { kind: 'no-body' } : { kind: 'unsupported' };
}
