/** What the gate reports: one change of the contract, where it is, and whether it breaks existing clients. */

/** An operation of the contract, or a webhook (whose payload the service sends, so it changes like a response). */
export interface OperationRef {
  readonly operationId: string;
  /** `GET /web/scrape`, or `webhook crawlEvent`. */
  readonly label: string;
}

/**
 * The kinds of change, each a stable id the allow file names. `*-field-*` kinds name a field of a
 * body by its path (`body.goal`, `200 data.post.metrics.views`); `parameter-*` kinds a parameter
 * (`query.mobile`); `*-changed` kinds any other keyword of a schema (type, const, bounds, pattern…).
 */
export const changeKinds = [
  'operation-added',
  'operation-removed',
  'operation-deprecated',
  'operation-security-changed',
  'operation-changed',
  'parameter-added',
  'parameter-removed',
  'parameter-required',
  'parameter-optional',
  'parameter-deprecated',
  'parameter-enum-value-added',
  'parameter-enum-value-removed',
  'parameter-changed',
  'request-body-added',
  'request-body-removed',
  'request-body-required',
  'request-body-optional',
  'request-media-type-added',
  'request-media-type-removed',
  'request-field-added',
  'request-field-removed',
  'request-field-required',
  'request-field-optional',
  'request-field-deprecated',
  'request-field-enum-value-added',
  'request-field-enum-value-removed',
  'request-field-changed',
  'response-status-added',
  'response-status-removed',
  'response-media-type-added',
  'response-media-type-removed',
  'response-header-added',
  'response-header-removed',
  'response-header-changed',
  'response-field-added',
  'response-field-removed',
  'response-field-required',
  'response-field-optional',
  'response-field-deprecated',
  'response-field-enum-value-added',
  'response-field-enum-value-removed',
  'response-field-changed',
] as const;

export type ChangeKind = (typeof changeKinds)[number];

/** One change between the base contract and the working tree's, as the library classified it (with the gate's corrections). */
export interface ContractChange {
  readonly operation: OperationRef;
  readonly kind: ChangeKind;
  /** Where in the operation: `query.mobile`, `body.goal`, `200 data.post.metrics.views`, `503`, `200 X-Cache`; empty for the operation itself. */
  readonly at: string;
  /** What changed, for people: `maxLength 1000 → 500`, `value "paused"`. */
  readonly detail: string;
  /** Breaks an existing client: a request it sends may now be refused, or an answer it reads may now surprise it. */
  readonly breaking: boolean;
  /** For a removal: whether the base marked the removed thing `deprecated`, and the `x-sunset` date it promised. */
  readonly deprecatedInBase?: { readonly sunset: string | undefined };
}

/** The gate's verdict on one change, after the versioning policy and the allow file. */
export type Verdict =
  | { readonly status: 'additive' }
  | { readonly status: 'breaking'; readonly why?: string }
  | { readonly status: 'withdrawn'; readonly sunset: string }
  | { readonly status: 'allowed'; readonly reason: string };

export interface JudgedChange extends ContractChange {
  readonly verdict: Verdict;
}
