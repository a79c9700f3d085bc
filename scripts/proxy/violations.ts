/** A departure from the contract that the proxy saw, and the kinds it sorts them into for the summary. */

export const VIOLATION_KINDS = [
  'request',
  'response-status',
  'response-content-type',
  'response-body',
  'response-header',
  'header-body-agreement',
  'envelope',
] as const;

export type ViolationKind = (typeof VIOLATION_KINDS)[number];

export interface Violation {
  kind: ViolationKind;
  message: string;
}
