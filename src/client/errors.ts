/**
 * The two kinds of failure a client sees, and the one place each is made
 * from what the server or the connection did.
 */
import { type ErrorResponse, type ResponseEnvelope, type SuccessResponse, isErrorResponse } from '../protocol/envelope.js';
import type { ErrorCode } from '../protocol/errors.js';

/** The server answered with an error. */
export class HerdrError extends Error {
  readonly code: ErrorCode;
  constructor(readonly response: ErrorResponse) {
    super(`${response.error.code}: ${response.error.message}`);
    this.code = response.error.code;
    this.name = 'HerdrError';
  }
}

/** The server could not be reached, hung up without answering, or answered with something that is not the protocol. */
export class ConnectionError extends Error {
  override name = 'ConnectionError';
}

/** A success answer as it came; an error answer thrown as HerdrError. */
export function successOrThrow(response: ResponseEnvelope): SuccessResponse {
  if (isErrorResponse(response)) throw new HerdrError(response);
  return response;
}

/** A connection's failure as ConnectionError, naming the server (one already made is kept as it is). */
export function connectionFailure(where: string, error: Error): ConnectionError {
  return error instanceof ConnectionError ? error : new ConnectionError(`${where}: ${error.message}`);
}

/** The connection closed before the answer came. */
export function closedUnanswered(where: string): ConnectionError {
  return new ConnectionError(`${where} closed the connection without answering`);
}

/** What a failed connect means to a user: no server at that path (the common case), or why not. */
export function connectError(socketPath: string, error: NodeJS.ErrnoException): ConnectionError {
  if (error.code === 'ENOENT' || error.code === 'ECONNREFUSED') {
    // The cause keeps the code: `herdr status` tells "not running" from "cannot reach".
    return new ConnectionError(`no server at ${socketPath} (start one with: herdr server)`, { cause: error });
  }
  return new ConnectionError(`cannot reach the herdr server at ${socketPath}: ${error.message}`, { cause: error });
}
