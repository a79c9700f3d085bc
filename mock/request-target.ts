/**
 * The path and query of a request as the server (Express) reads them. WHATWG URL parsing resolves
 * `.` and `..` segments (`/v1/web/jobs/..` becomes `/v1/web/`), but the server takes such a segment
 * as the id it stands in place of; the mock keeps it, so both answer the same for the same request.
 */
export interface RequestTarget {
  pathname: string;
  search: string;
}

const DOT_SEGMENT = /^(?:\.|%2e){1,2}$/i;

/**
 * A target the URL parser gives back unchanged: a path of characters it keeps as they are, with no
 * dot (so no dot segment) and no leading `//` (a host), and a query of such characters.
 */
const PLAIN_TARGET = /^\/(?!\/)[\w\-~!$&()*+,;=:@%/]*(?:\?[\w\-.~!$&()*+,;=:@%/?]*)?$/;

export function requestTarget(raw: string): RequestTarget {
  if (!PLAIN_TARGET.test(raw)) return parsedRequestTarget(raw);
  // Most targets are plain: split, not parsed (a URL parse costs several microseconds a request).
  const queryStart = raw.indexOf('?');
  if (queryStart === -1) return { pathname: raw, search: '' };
  return { pathname: raw.slice(0, queryStart), search: queryStart === raw.length - 1 ? '' : raw.slice(queryStart) };
}

/** Any target, through the URL parser, its dot segments kept. */
export function parsedRequestTarget(raw: string): RequestTarget {
  const [rawPath = '/', ...rest] = raw.split('?');
  const segments = rawPath.split('/');
  const dotted = new Map<string, string>();
  const kept = segments.map((segment, index) => {
    if (!DOT_SEGMENT.test(segment)) return segment;
    const token = `dotsegment${index}x`;
    dotted.set(token, segment);
    return token;
  });
  const url = new URL(`${kept.join('/')}${rest.length > 0 ? `?${rest.join('?')}` : ''}`, 'http://mock.local');
  const pathname = dotted.size === 0 ? url.pathname : url.pathname.split('/').map((segment) => dotted.get(segment) ?? segment).join('/');
  return { pathname, search: url.search };
}
