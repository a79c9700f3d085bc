/** A query as Prism's validator takes it: one string per name, or the list when a name repeats. */
export function queryRecord(query: URLSearchParams): Record<string, string | string[]> {
  const record: Record<string, string | string[]> = {};
  for (const name of new Set(query.keys())) {
    const values = query.getAll(name);
    record[name] = values.length === 1 ? values[0]! : values;
  }
  return record;
}
