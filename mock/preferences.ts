/**
 * Prism's response selection, as Prism users know it: the `Prefer` header (`code=503`,
 * `example=<name>`, `dynamic=true`, `seed=<text>`), or the query parameters `__code`,
 * `__example`, `__dynamic` and `__seed` when there is no `Prefer` header.
 */
import type { OperationRow } from '../generated/operations.ts';
import { declaredAnswers } from './declared-answers.ts';

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
    if (value === null) continue;
    taken.set(name.slice(2), value);
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

/**
 * Why the operation cannot answer as preferred (an undeclared status, an example name it does not
 * have), saying what exists; undefined when it can. The clause ends without a period: it goes into
 * an `invalid_parameters` message, which adds one.
 */
export function unmetPreference(operation: OperationRow, preferences: Preferences): string | undefined {
  const answers = declaredAnswers(operation);
  const name = operation.operationId;
  if (preferences.code !== undefined && !answers.has(preferences.code)) {
    return `Prefer code=${preferences.code} cannot be met: ${name} declares the statuses ${[...answers.keys()].join(', ')}`;
  }
  const { exampleKey } = preferences;
  if (exampleKey === undefined) return undefined;
  const status = preferences.code ?? 200;
  const names = (answers.get(status) ?? []).map((example) => example.name);
  if (names.includes(exampleKey)) return undefined;
  const unmet = `Prefer example=${exampleKey} cannot be met: ${name} has no example named "${exampleKey}" for status ${status}`;
  const existing = names.length > 0 ? `; its examples are ${names.join(', ')}` : ', which has no named examples';
  const elsewhere = [...answers].filter(([other, examples]) => other !== status && examples.some((example) => example.name === exampleKey)).map(([other]) => other);
  const hint = elsewhere.length > 0
    ? `; "${exampleKey}" is an example of status ${elsewhere.join(', ')}: send code=${elsewhere[0]} with it`
    : ' (for the examples of another status, send code=<status> with example)';
  return `${unmet}${existing}${hint}`;
}
