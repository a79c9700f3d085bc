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

/** `JSON.stringify(body)`, byte for byte, with each kept value among `body`'s fields written from its remembered text. */
export function jsonWithKeptValues(body: Record<string, unknown>): string {
  let text = '';
  for (const key of Object.keys(body)) {
    const value = body[key];
    const written = (typeof value === 'object' && value !== null && texts.get(value)) || JSON.stringify(value);
    // As JSON.stringify leaves out a field that is undefined, a function or a symbol.
    if (written === undefined) continue;
    text += `${text === '' ? '{' : ','}${JSON.stringify(key)}:${written}`;
  }
  return text === '' ? '{}' : `${text}}`;
}
