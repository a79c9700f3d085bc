/**
 * The JSON text of kept values (deep frozen and shared between requests, see README "What the mock
 * keeps"), written once: a kept value cannot change, so neither can its text. An answer is then
 * written around the kept values it carries, rather than every field of it every time (the
 * sandbox's `data` of a scrape is most of the answer's text).
 */
const texts = new WeakMap<object, string>();

/** Remembers the JSON text of `value`, which must be deep frozen; returns `value`. */
export function withKeptJson<Value extends object>(value: Value): Value {
  texts.set(value, JSON.stringify(value));
  return value;
}

/** Field names as JSON writes them, with their colon: an answer's envelope has the same few fields. */
const writtenNames = new Map<string, string>();
const NAMES_KEPT = 64;

function writtenName(key: string): string {
  let written = writtenNames.get(key);
  if (written === undefined) {
    written = `${JSON.stringify(key)}:`;
    if (writtenNames.size < NAMES_KEPT) writtenNames.set(key, written);
  }
  return written;
}

/** A field's value as JSON.stringify writes it, a kept value from its remembered text; undefined for a value it leaves out. */
function writtenValue(value: unknown): string | undefined {
  switch (typeof value) {
    case 'object':
      return (value !== null && texts.get(value)) || JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    default:
      return JSON.stringify(value);
  }
}

/** `JSON.stringify(body)`, byte for byte, with each kept value among `body`'s fields written from its remembered text. */
export function jsonWithKeptValues(body: Record<string, unknown>): string {
  let text = '';
  for (const key of Object.keys(body)) {
    const written = writtenValue(body[key]);
    // As JSON.stringify leaves out a field that is undefined, a function or a symbol.
    if (written === undefined) continue;
    text += `${text === '' ? '{' : ','}${writtenName(key)}${written}`;
  }
  return text === '' ? '{}' : `${text}}`;
}
