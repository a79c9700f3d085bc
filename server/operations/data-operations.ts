/** Operations whose `data` comes straight from a provider, after the rules across their parameters. */
import type { DataOperationId } from '../providers/types.ts';
import { ProviderError } from '../providers/types.ts';
import { crossParameterProblem } from '../../lib/cross-parameter-rules.ts';
import { invalidParameters, providerUnavailable } from '../../lib/error-messages.ts';
import { ServiceError } from '../gateway/service-error.ts';
import { checkTarget } from './targets.ts';
import type { OperationHandler } from './types.ts';

/** The handler of a provider-backed operation: 503 with no credits when no provider serves it. */
export function providerOperation(operationId: DataOperationId): OperationHandler {
  return {
    check(context) {
      const problem = crossParameterProblem(operationId, context.query, context.deps.clock.now());
      if (problem) throw new ServiceError('invalid_parameters', invalidParameters([problem]));
      // The page a call names is checked like a job's, for every key: a sandbox key too is refused a non-public address.
      if (context.operation.queryParameters.includes('url') && typeof context.query.url === 'string') checkTarget(context, context.query.url, 'query.url');
      if (!context.deps.providers.providerFor(context.key, operationId)) {
        throw new ServiceError('provider_unavailable', providerUnavailable(context.operation));
      }
    },
    async run(context) {
      const provider = context.deps.providers.providerFor(context.key, operationId)!;
      try {
        return await provider.fetch({ operationId, query: context.query, signal: context.signal });
      } catch (error) {
        if (!(error instanceof ProviderError)) throw error;
        context.deps.metrics.upstreamFailed(provider.name, error.code);
        throw new ServiceError(error.code, error.message, error.headers);
      }
    },
  };
}
