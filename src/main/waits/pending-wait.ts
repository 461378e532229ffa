/**
 * The bookkeeping every server-side wait shares (output, events, agents): a deadline, and
 * one settlement however the wait ends, counted in `server.stats` while it is open.
 */
import { ProtocolError } from '../../protocol/errors.js';
import type { Connection } from '../connection.js';
import type { OpenCounts } from '../open-counts.js';

/** A timer for an optional timeout; returns its cancel function. */
export function deadline(timeoutMs: number | undefined, expired: () => void): () => void {
  if (timeoutMs === undefined) return () => undefined;
  const timer = setTimeout(expired, timeoutMs);
  return () => clearTimeout(timer);
}

/**
 * The bookkeeping of one pending wait: counted in `server.stats`, settled once,
 * cleaned up however it ends (match, deadline, pane gone, client gone).
 */
export function openWait(open: OpenCounts, connection: Connection, reject: (error: Error) => void) {
  let done = false;
  const cleanups: Array<() => void> = [open.open('waits')];
  const finish = (settle: () => void) => {
    if (done) return;
    done = true;
    for (const cleanup of cleanups.splice(0)) cleanup();
    settle();
  };
  // The client went away, or closed its side (docs/protocol.md §1): settle, so nothing waits on it forever.
  const abandoned = () =>
    finish(() =>
      reject(new ProtocolError('timeout', connection.clientDone ? 'the client closed its side of the connection; a wait needs it open' : 'the client went away')),
    );
  connection.signal.addEventListener('abort', abandoned, { once: true });
  cleanups.push(() => connection.signal.removeEventListener('abort', abandoned));
  if (connection.signal.aborted) queueMicrotask(abandoned);
  return {
    finish,
    /** Pushed after the wait settled, a cleanup runs at once. */
    cleanups: {
      push(cleanup: () => void) {
        if (done) cleanup();
        else cleanups.push(cleanup);
      },
    },
  };
}
