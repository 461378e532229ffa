/** `pane.wait_for_output` (docs/protocol.md §8), and the output-watch helper it shares with subscriptions. */
import { ProtocolError } from '../../protocol/errors.js';
import { MAX_READ_LINES, type MatchSpec } from '../../protocol/methods.js';
import type { PaneRead, ReadSource } from '../../protocol/objects.js';
import { checkPattern } from '../patterns.js';
import type { Connection } from '../connection.js';
import type { PaneRecord } from '../registry.js';
import type { Router } from '../router.js';
import type { Session } from '../session.js';

const DEFAULT_WINDOW_LINES = 80;

export interface OutputMatch {
  pane_id: string;
  matched_line: string;
  read: PaneRead;
}

interface WindowSpec {
  source: ReadSource;
  lines?: number | undefined;
  strip_ansi?: boolean | undefined;
  match: MatchSpec;
}

/**
 * Watches `pane` for `spec`: `matched` runs on every flip to "match" (edge
 * triggered), `gone` when the pane goes away. Returns the function that stops
 * watching.
 */
export function watchOutput(
  session: Session,
  pane: PaneRecord,
  spec: WindowSpec,
  on: { matched(result: OutputMatch): void; gone?(): void; ready?(): void },
): () => void {
  const { matcherId, ready } = session.watches.watch(
    pane,
    session.shardOf(pane.workspace),
    {
      source: spec.source,
      lines: Math.min(spec.lines ?? DEFAULT_WINDOW_LINES, MAX_READ_LINES),
      stripAnsi: spec.strip_ansi ?? true,
      pattern: { type: spec.match.type, value: spec.match.value },
    },
    {
      changed(change) {
        if (!change.matched) return;
        const read = session.paneRead(pane, spec.source, change.read);
        on.matched({ pane_id: read.pane_id, matched_line: change.matchedLine, read });
      },
      gone: () => on.gone?.(),
    },
  );
  ready.then(() => on.ready?.(), () => undefined);
  return () => session.watches.unwatch(matcherId);
}

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
export function openWait(session: Session, connection: Connection, reject: (error: Error) => void) {
  session.activity.waits++;
  let done = false;
  const cleanups: Array<() => void> = [() => session.activity.waits--];
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

export function registerWaitHandlers(router: Router, session: Session): void {
  router.register('pane.wait_for_output', (params, { connection }) => {
    checkPattern(params.match);
    const pane = session.registry.resolvePane(params.pane_id);
    return new Promise((resolve, reject) => {
      const { finish, cleanups } = openWait(session, connection, reject);
      const stop = watchOutput(session, pane, params, {
        matched: (match) =>
          finish(() => resolve({ type: 'output_matched', revision: match.read.revision, ...match })),
        gone: () => finish(() => reject(new ProtocolError('pane_not_found', `pane ${params.pane_id} went away during the wait`))),
        // The deadline starts once the current text has been checked, so a match already there always wins.
        ready: () =>
          cleanups.push(
            deadline(params.timeout_ms, () =>
              finish(() => reject(new ProtocolError('timeout', 'timed out waiting for output match'))),
            ),
          ),
      });
      cleanups.push(stop);
    });
  });
}
