/**
 * The rules across query parameters that the contract's schemas cannot express, in one place for
 * the server (before any credit is drawn) and the mock: each rule names the parameters it refuses.
 */
import type { OperationId } from '../generated/operations.ts';

/** Query values as received (text, or several for a repeated parameter); absent parameters are undefined. */
export type QueryValues = Readonly<Record<string, unknown>>;

/** `today` is the caller's date as `YYYY-MM-DD` (UTC), from an injected clock. */
type Rule = (query: QueryValues, today: string) => string | undefined;

function given(query: QueryValues, name: string): boolean {
  return query[name] !== undefined;
}

function text(query: QueryValues, name: string): string | undefined {
  return query[name] === undefined ? undefined : String(query[name]);
}

const extractNeedsSchemaOrPrompt: Rule = (query) => {
  const hasSchema = given(query, 'schema');
  if (hasSchema === given(query, 'prompt')) return `give exactly one of query.schema and query.prompt (${hasSchema ? 'both were' : 'neither was'} given)`;
  if (!hasSchema) return undefined;
  let schema: unknown;
  try {
    schema = JSON.parse(text(query, 'schema')!);
  } catch (error) {
    return `query.schema is not JSON: ${(error as Error).message}`;
  }
  if (typeof schema !== 'object' || schema === null || (schema as { type?: unknown }).type !== 'object') {
    return 'query.schema must be a JSON Schema whose root has "type": "object"';
  }
  return undefined;
};

const searchDomainsOneWay: Rule = (query) =>
  given(query, 'include_domains') && given(query, 'exclude_domains') ? 'give at most one of query.include_domains and query.exclude_domains' : undefined;

const priceHistoryPeriod: Rule = (query, today) => {
  const [range, start, end] = [text(query, 'range'), text(query, 'start'), text(query, 'end')];
  if (range !== undefined && (start !== undefined || end !== undefined)) return 'give either query.range or query.start (with an optional query.end), not both';
  if (end !== undefined && start === undefined) return 'query.end needs query.start';
  if (start !== undefined && end !== undefined && end < start) return `query.end (${end}) is before query.start (${start})`;
  if (start !== undefined && end === undefined && start > today) return `query.start (${start}) is after today (${today})`;
  return undefined;
};

const socialEventsPeriod: Rule = (query) => {
  const [since, until] = [text(query, 'since'), text(query, 'until')];
  return since !== undefined && until !== undefined && until < since ? `query.until (${until}) is before query.since (${since})` : undefined;
};

const RULES: Partial<Record<OperationId, Rule>> = {
  extractWebData: extractNeedsSchemaOrPrompt,
  searchWeb: searchDomainsOneWay,
  getPriceHistory: priceHistoryPeriod,
  listSocialEvents: socialEventsPeriod,
};

/** The problem with a request's query across its parameters, or undefined when there is none. */
export function crossParameterProblem(operationId: OperationId, query: QueryValues, nowMs: number): string | undefined {
  return RULES[operationId]?.(query, new Date(nowMs).toISOString().slice(0, 10));
}
