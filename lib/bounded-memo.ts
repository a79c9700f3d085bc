/**
 * A memo of at most `capacity` entries, the least recently used dropped first: for answers that
 * depend on nothing but their key, whose keys come from callers and so must not grow without bound.
 *
 * The entries are kept in order of use in a list linked through them: a read moves its entry to
 * the end by relinking it, where re-inserting it into the Map (delete, then set) cost ten times
 * the lookup, on every read of every request.
 */
interface Entry<Value> {
  key: string;
  value: Value;
  /** Toward the least recently used. */
  older: Entry<Value> | undefined;
  /** Toward the most recently used. */
  newer: Entry<Value> | undefined;
}

export class BoundedMemo<Value> {
  readonly #entries = new Map<string, Entry<Value>>();
  readonly #capacity: number;
  #oldest: Entry<Value> | undefined;
  #newest: Entry<Value> | undefined;

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** The value kept for `key`, now the most recently used, or undefined. */
  get(key: string): Value | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    this.#unlink(entry);
    this.#append(entry);
    return entry.value;
  }

  /** Keeps `value` for `key`, dropping the least recently used entry when full. */
  set(key: string, value: Value): void {
    const known = this.#entries.get(key);
    if (known) this.#unlink(known);
    const entry: Entry<Value> = { key, value, older: undefined, newer: undefined };
    this.#entries.set(key, entry);
    this.#append(entry);
    if (this.#entries.size > this.#capacity) {
      const oldest = this.#oldest!;
      this.#unlink(oldest);
      this.#entries.delete(oldest.key);
    }
  }

  /** The value for `key`, computed and kept on a miss. */
  through(key: string, compute: () => Value): Value {
    const kept = this.get(key);
    if (kept !== undefined) return kept;
    const value = compute();
    this.set(key, value);
    return value;
  }

  #unlink(entry: Entry<Value>): void {
    if (entry.older) entry.older.newer = entry.newer;
    else this.#oldest = entry.newer;
    if (entry.newer) entry.newer.older = entry.older;
    else this.#newest = entry.older;
    entry.older = undefined;
    entry.newer = undefined;
  }

  #append(entry: Entry<Value>): void {
    entry.older = this.#newest;
    if (this.#newest) this.#newest.newer = entry;
    else this.#oldest = entry;
    this.#newest = entry;
  }
}
