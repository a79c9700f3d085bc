/** Operations whose `data` comes straight from a provider, with the rules across their parameters. */
import type { DataOperationId } from '../providers/types.ts';
import { ProviderError } from '../providers/types.ts';
import { ServiceError } from '../gateway/service-error.ts';
import type { OperationContext, OperationHandler } from './types.ts';

function invalid(problem: string): ServiceError {
  return new ServiceError('invalid_parameters', `Invalid parameters: ${problem}.`);
}

function checkExtract({ query }: OperationContext): void {
  const hasSchema = query.schema !== undefined;
  const hasPrompt = query.prompt !== undefined;
  if (hasSchema === hasPrompt) throw invalid(`give exactly one of query.schema and query.prompt (${hasSchema ? 'both were' : 'neither was'} given)`);
  if (hasSchema) {
    let schema: unknown;
    try {
      schema = JSON.parse(String(query.schema));
    } catch (error) {
      throw invalid(`query.schema is not JSON: ${(error as Error).message}`);
    }
    if (typeof schema !== 'object' || schema === null || (schema as { type?: unknown }).type !== 'object') {
      throw invalid('query.schema must be a JSON Schema whose root has "type": "object"');
    }
  }
}

function checkSearch({ query }: OperationContext): void {
  if (query.include_domains !== undefined && query.exclude_domains !== undefined) throw invalid('give at most one of query.include_domains and query.exclude_domains');
}

function checkPriceHistory({ query, deps }: OperationContext): void {
  const { range, start, end } = query as { range?: string; start?: string; end?: string };
  if (range !== undefined && (start !== undefined || end !== undefined)) throw invalid('give either query.range or query.start (with an optional query.end), not both');
  if (end !== undefined && start === undefined) throw invalid('query.end needs query.start');
  const today = new Date(deps.clock.now()).toISOString().slice(0, 10);
  if (start !== undefined && end !== undefined && end < start) throw invalid(`query.end (${end}) is before query.start (${start})`);
  if (start !== undefined && end === undefined && start > today) throw invalid(`query.start (${start}) is after today (${today})`);
}

function checkSocialEvents({ query }: OperationContext): void {
  const { since, until } = query as { since?: string; until?: string };
  if (since !== undefined && until !== undefined && until < since) throw invalid(`query.until (${until}) is before query.since (${since})`);
}

const CHECKS: Partial<Record<DataOperationId, (context: OperationContext) => void>> = {
  extractWebData: checkExtract,
  searchWeb: checkSearch,
  getPriceHistory: checkPriceHistory,
  listSocialEvents: checkSocialEvents,
};

/** The handler of a provider-backed operation: 503 with no credits when no provider serves it. */
export function providerOperation(operationId: DataOperationId): OperationHandler {
  return {
    check(context) {
      CHECKS[operationId]?.(context);
      if (!context.deps.providers.providerFor(context.key, operationId)) {
        throw new ServiceError('provider_unavailable', `No provider is configured for ${context.operation.path.slice(1)}; no credits were used.`);
      }
    },
    async run(context) {
      const provider = context.deps.providers.providerFor(context.key, operationId)!;
      try {
        return await provider.fetch({ operationId, query: context.query, signal: context.signal });
      } catch (error) {
        if (!(error instanceof ProviderError)) throw error;
        context.deps.metrics.upstreamFailed(provider.name, error.code);
        throw new ServiceError(error.code, error.message);
      }
    },
  };
}
