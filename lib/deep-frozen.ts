/** `value` and everything in it made read-only: a kept answer is shared by every request that gets it. */
export function deepFrozen<Value>(value: Value): Value {
  if (typeof value === 'object' && value !== null && !ArrayBuffer.isView(value) && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFrozen(child);
  }
  return value;
}
