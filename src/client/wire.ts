/** What every client connection shares: newline-delimited JSON, both ways. */
import type { Duplex } from 'node:stream';

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
