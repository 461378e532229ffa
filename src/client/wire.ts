/** What every client connection shares: line framing and the two kinds of failure. */
import type { Duplex } from 'node:stream';
import type { ErrorResponse } from '../protocol/envelope.js';
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

/** The server could not be reached or hung up without answering. */
export class ConnectionError extends Error {
  override name = 'ConnectionError';
}

/** Calls `onLine` with every non-empty line the socket delivers. */
export function lineReader(socket: Duplex, onLine: (line: string) => void): void {
  let buffered = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    buffered += chunk;
    let newline: number;
    while ((newline = buffered.indexOf('\n')) !== -1) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      if (line.trim() !== '') onLine(line);
    }
  });
}

/** What a failed connect means to a user: no server at that path (the common case), or why not. */
export function connectError(socketPath: string, error: NodeJS.ErrnoException): ConnectionError {
  if (error.code === 'ENOENT' || error.code === 'ECONNREFUSED') {
    return new ConnectionError(`no server at ${socketPath} (start one with: herdr server)`);
  }
  return new ConnectionError(`cannot reach the herdr server at ${socketPath}: ${error.message}`);
}

/**
 * A message as one NDJSON line. JSON.stringify refuses bigints; a message
 * with one (a hook's nanosecond `seq`) is written with its digits exact by
 * lossless-json, loaded only then (it would add ~14 ms to every command's start).
 */
export async function jsonLine(message: object): Promise<string> {
  try {
    return `${JSON.stringify(message)}\n`;
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    const { stringify } = await import('lossless-json');
    return `${stringify(message) ?? ''}\n`;
  }
}
