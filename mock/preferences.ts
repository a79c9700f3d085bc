/**
 * Prism's response selection, as Prism users know it: the `Prefer` header (`code=503`,
 * `example=<name>`, `dynamic=true`, `seed=<text>`), or the query parameters `__code`,
 * `__example`, `__dynamic` and `__seed` when there is no `Prefer` header.
 */
export interface Preferences {
  code?: number;
  exampleKey?: string;
  dynamic?: boolean;
  seed?: string;
}

export type PreferencesResult = { ok: true; preferences: Preferences } | { ok: false; problem: string };

const SELECTION_QUERY = ['__code', '__example', '__dynamic', '__seed'] as const;

/** Removes Prism's selection parameters from `query` and returns them as name/value pairs. */
export function takeSelectionQuery(query: URLSearchParams): Map<string, string> {
  const taken = new Map<string, string>();
  for (const name of SELECTION_QUERY) {
    const value = query.get(name);
    if (value !== null) taken.set(name.slice(2), value);
    query.delete(name);
  }
  return taken;
}

function parsePreferHeader(header: string): Map<string, string> {
  const pairs = new Map<string, string>();
  for (const part of header.split(/[,;]/)) {
    const [name, ...value] = part.split('=');
    if (name?.trim()) pairs.set(name.trim().toLowerCase(), value.join('=').trim().replace(/^"(.*)"$/, '$1'));
  }
  return pairs;
}

/** Reads the caller's preferences; a malformed one is a problem to report, not to ignore. */
export function readPreferences(preferHeader: string | undefined, selectionQuery: Map<string, string>): PreferencesResult {
  const pairs = preferHeader ? parsePreferHeader(preferHeader) : selectionQuery;
  const preferences: Preferences = {};
  const code = pairs.get('code');
  if (code !== undefined) {
    if (!/^[1-5][0-9]{2}$/.test(code)) return { ok: false, problem: `Prefer code=${code} is not an HTTP status code` };
    preferences.code = Number(code);
  }
  const dynamic = pairs.get('dynamic');
  if (dynamic !== undefined) {
    if (dynamic !== 'true' && dynamic !== 'false') return { ok: false, problem: `Prefer dynamic=${dynamic} must be true or false` };
    preferences.dynamic = dynamic === 'true';
  }
  const example = pairs.get('example');
  if (example) preferences.exampleKey = example;
  const seed = pairs.get('seed');
  if (seed) preferences.seed = seed;
  return { ok: true, preferences };
}
