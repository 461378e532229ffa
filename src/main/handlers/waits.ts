/** `pane.wait_for_output` (docs/protocol.md §8), and the output-watch helper it shares with subscriptions. */
import { currentPaneIds, withCurrentView } from '../ids.js';
import { ProtocolError } from '../../protocol/errors.js';
import type { OutputMatch } from '../../protocol/objects.js';
import { type MatchSpec, type ReadWindow, readWindow } from '../../protocol/read-window.js';
import type { Connection } from '../connection.js';
import type { OpenCounts } from '../open-counts.js';
import type { PaneOperations } from '../operations/panes.js';
import type { OutputMatchers } from '../output-matchers.js';
import type { PaneShards } from '../pane-shards.js';
import { checkPattern } from '../patterns.js';
import type { PaneRecord, Registry } from '../registry.js';
import type { Router } from '../router.js';

/** What watching a pane's output takes. */
export interface OutputWatchParts {
  matchers: OutputMatchers;
  shards: PaneShards;
  panes: Pick<PaneOperations, 'paneRead'>;
}

/**
 * Watches `pane` for `match` in `window`: `matched` runs on every flip to
 * "match" (edge triggered), `gone` when the pane goes away. Returns the
 * function that stops watching.
 */
export function watchOutput(
  parts: OutputWatchParts,
  pane: PaneRecord,
  window: ReadWindow,
  match: MatchSpec,
  on: { matched(result: OutputMatch): void; gone?(): void; ready?(): void },
): () => void {
  const { matcherId, ready } = parts.matchers.add(pane, parts.shards.of(pane.workspace), { ...window, pattern: match }, {
    changed(change) {
      if (!change.matched) return;
      const read = parts.panes.paneRead(pane, window, change.read);
      on.matched(withCurrentView({ pane_id: read.pane_id, matched_line: change.matchedLine, read }, { pane_id: currentPaneIds(pane).pane_id }));
    },
    gone: () => on.gone?.(),
  });
  ready.then(() => on.ready?.(), () => undefined);
  return () => parts.matchers.remove(matcherId);
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

export function registerWaitHandlers(router: Router, parts: OutputWatchParts & { registry: Registry; open: OpenCounts }): void {
  router.register('pane.wait_for_output', (params, { connection }) => {
    checkPattern(params.match);
    const pane = parts.registry.resolvePane(params.pane_id);
    return new Promise((resolve, reject) => {
      const { finish, cleanups } = openWait(parts.open, connection, reject);
      const stop = watchOutput(parts, pane, readWindow(params), params.match, {
        matched: (match) => finish(() => resolve({ type: 'output_matched', revision: match.read.revision, ...match })),
        gone: () => finish(() => reject(new ProtocolError('pane_not_found', `pane ${params.pane_id} went away during the wait`))),
        // The deadline starts once the current text has been checked, so a match already there always wins.
        ready: () =>
          cleanups.push(deadline(params.timeout_ms, () => finish(() => reject(new ProtocolError('timeout', 'timed out waiting for output match'))))),
      });
      cleanups.push(stop);
    });
  });
}
