/**
 * The server's address policy on the URLs a request gives (server/operations/targets.ts and the
 * batch rule of server/operations/jobs.ts), for the mock: a non-public address answers 422
 * `url_not_allowed` and a URL no parser takes 422 `invalid_parameters`, with the server's words.
 */
import type { ErrorCode } from '../generated/errors.ts';
import type { OperationRow } from '../generated/operations.ts';
import { checkedUrl } from '../server/outbound/address-policy.ts';
import { ProviderError } from '../server/providers/types.ts';
import { BoundedMemo } from '../lib/bounded-memo.ts';

/** The mock has no intranet to allow: only public addresses, as a default server. */
const POLICY = { allowPrivateNetwork: false };

export interface RefusedTarget {
  code: ErrorCode;
  message: string;
}

/** Verdicts kept, by URL and parameter: the policy's verdict on a URL depends on its text alone. */
export const VERDICTS_KEPT = 1024;
const ACCEPTED = 'accepted';
const verdicts = new BoundedMemo<RefusedTarget | typeof ACCEPTED>(VERDICTS_KEPT);

/**
 * The policy's verdict on `url` given as `where`. It is kept: the check is pure (the URL's text,
 * the fixed policy) but costly for a host name, which ipaddr.js parses as an address first.
 */
function refusal(url: string, where: string): RefusedTarget | undefined {
  const verdict = verdicts.through(`${where} ${url}`, () => {
    try {
      checkedUrl(url, POLICY, where);
      return ACCEPTED;
    } catch (error) {
      if (error instanceof ProviderError) return Object.freeze({ code: error.code, message: error.message });
      throw error;
    }
  });
  return verdict === ACCEPTED ? undefined : verdict;
}

function isHttpUrl(text: string): boolean {
  return URL.canParse(text) && /^https?:$/.test(new URL(text).protocol) && new URL(text).hostname !== '';
}

/** A batch's `urls`: malformed or non-public ones refuse the call unless `ignore_invalid_urls`; none left refuses it anyway. */
function batchRefusal(urls: unknown[], ignoreInvalid: boolean): RefusedTarget | undefined {
  const texts = urls.map(String);
  const malformed = texts.filter((url) => !isHttpUrl(url));
  const refused = texts.filter((url) => isHttpUrl(url) && refusal(url, 'body.urls') !== undefined);
  if (!ignoreInvalid && malformed.length > 0) return { code: 'invalid_parameters', message: `Invalid parameters: body.urls holds URLs that are not absolute http or https URLs: ${malformed.map((url) => JSON.stringify(url)).join(', ')}.` };
  if (!ignoreInvalid && refused.length > 0) return { code: 'url_not_allowed', message: `body.urls holds URLs of non-public addresses: ${refused.map((url) => JSON.stringify(url)).join(', ')}.` };
  if (malformed.length + refused.length === texts.length) return { code: 'invalid_parameters', message: 'Invalid parameters: body.urls holds no valid URL.' };
  return undefined;
}

/** What the server refuses among the URLs of a request the contract's schemas accepted, or undefined. */
export function refusedTarget(operation: OperationRow, query: URLSearchParams, body: unknown): RefusedTarget | undefined {
  const url = query.get('url');
  if (operation.queryParameters.includes('url') && url !== null) {
    const refused = refusal(url, 'query.url');
    if (refused) return refused;
  }
  if (!body || typeof body !== 'object') return undefined;
  const fields = body as Record<string, unknown>;
  for (const field of ['url', 'webhook_url']) {
    const value = fields[field];
    const refused = typeof value === 'string' ? refusal(value, `body.${field}`) : undefined;
    if (refused) return refused;
  }
  return Array.isArray(fields.urls) ? batchRefusal(fields.urls, fields.ignore_invalid_urls === true) : undefined;
}
