/** Request and response envelopes of docs/protocol.md §2. */
import type { ErrorCode } from './errors.js';

export interface SuccessResponse<R = unknown> {
  id: string;
  result: R;
}

export interface ErrorResponse {
  id: string;
  error: { code: ErrorCode; message: string };
}

export type ResponseEnvelope<R = unknown> = SuccessResponse<R> | ErrorResponse;

export function isErrorResponse(response: ResponseEnvelope): response is ErrorResponse {
  return 'error' in response;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
