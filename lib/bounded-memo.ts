/**
 * A memo of at most `capacity` entries, the least recently used dropped first: for answers that
 * depend on nothing but their key, whose keys come from callers and so must not grow without bound.
 */
export class BoundedMemo<Value> {
  readonly #entries = new Map<string, Value>();
  readonly #capacity: number;

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** The value kept for `key`, now the most recently used, or undefined. */
  get(key: string): Value | undefined {
    const value = this.#entries.get(key);
    if (value === undefined) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, value);
    return value;
  }

  /** Keeps `value` for `key`, dropping the least recently used entry when full. */
  set(key: string, value: Value): void {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    if (this.#entries.size > this.#capacity) this.#entries.delete(this.#entries.keys().next().value!);
  }

  /** The value for `key`, computed and kept on a miss. */
  through(key: string, compute: () => Value): Value {
    const kept = this.get(key);
    if (kept !== undefined) return kept;
    const value = compute();
    this.set(key, value);
    return value;
  }
}
