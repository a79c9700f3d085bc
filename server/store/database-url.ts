/** Which engine a DATABASE_URL names, and the URL as it may be shown (its password masked). */
import { parse } from 'pg-connection-string';

/** A `postgres://` or `postgresql://` URL (libpq's forms, Unix sockets included) selects PostgreSQL; anything else is a SQLite file path or `:memory:`. */
export function isPostgresUrl(location: string): boolean {
  return /^postgres(ql)?:\/\//i.test(location);
}

/** The URL with its password replaced by `***`, for logs and error messages; a SQLite path as it is. */
export function shownDatabaseUrl(location: string): string {
  if (!isPostgresUrl(location)) return location;
  return location.replace(/^([a-z]+:\/\/[^:@/?#]*:)[^@/?#]*@/i, '$1***@').replace(/([?&]password=)[^&#]*/i, '$1***');
}

/** Why a PostgreSQL URL cannot be used, or null when it can: it must parse and name a database. */
export function postgresUrlProblem(location: string): string | null {
  let parsed;
  try {
    parsed = parse(location);
  } catch {
    return "it does not parse (libpq's forms: postgres://user:password@host:port/database, or postgres://user@/database?host=/socket/folder)";
  }
  if (!parsed.database) return 'it names no database (such as postgres://user@host/wsdq)';
  return null;
}
