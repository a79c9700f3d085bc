import type { ErrorCode } from '../../generated/errors.ts';

/** An error answer of the contract: its code decides status and type; the message is for people. */
export class ServiceError extends Error {
  readonly code: ErrorCode;
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.code = code;
    this.headers = headers;
  }
}
