/** User-given URLs (pages, webhook_url) checked against the address policy before anything is stored or charged. */
import { ServiceError } from '../gateway/service-error.ts';
import { checkedUrl } from '../outbound/address-policy.ts';
import { ProviderError } from '../providers/types.ts';
import type { OperationContext } from './types.ts';

/** Refuses a URL that may not be fetched (non-public address, other scheme) with the contract's error. */
export function checkTarget(context: OperationContext, url: string, parameter: string): void {
  try {
    checkedUrl(url, context.deps.addressPolicy, parameter);
  } catch (error) {
    if (error instanceof ProviderError) throw new ServiceError(error.code, error.message);
    throw error;
  }
}
