/** RFC 3339 in UTC without milliseconds, as the contract's timestamps are written. */
export function timestamp(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
