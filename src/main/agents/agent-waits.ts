/**
 * Waiting on one agent, server-side (docs/protocol.md §13.3): the wait looks at the
 * pane again at once, on every event about it (its agent, its status, its exit, its
 * close), at the extra times its caller names (a prompt's stall window) and never
 * otherwise: nothing polls. It ends when `look` settles or fails it, at its deadline,
 * or when the client goes away.
 */
import { ProtocolError } from '../../protocol/errors.js';
import type { Connection } from '../connection.js';
import type { EventHub, LoggedEvent } from '../event-hub.js';
import { deadline, openWait } from '../waits/pending-wait.js';
import type { OpenCounts } from '../open-counts.js';
import type { PaneRecord } from '../registry.js';

/** What a look at the pane decided: keep waiting (undefined), answer, or fail. */
export type Verdict<T> = { settle: T } | { fail: ProtocolError } | undefined;

export interface AgentWaitParts {
  events: EventHub;
  open: OpenCounts;
}

export interface AgentWait<T> {
  pane: PaneRecord;
  /** Called at once, on each event about the pane (or any workspace close), and at `lookAgainAfterMs`. */
  look(event: LoggedEvent | undefined): Verdict<T>;
  timeoutMs: number | undefined;
  /** What the deadline answers (errorNaming: the pane as the client's dialect names it). */
  timedOut(): ProtocolError;
  /** Extra looks, in ms from the start (e.g. when a prompt's stall window ends). */
  lookAgainAfterMs?: number[];
  /** Runs when the deadline passed, before the timeout is answered (a start clears its pending launch). */
  onTimeout?(): void;
}

export function waitOnAgent<T>(parts: AgentWaitParts, connection: Connection, wait: AgentWait<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    const { finish, cleanups } = openWait(parts.open, connection, reject);
    const apply = (verdict: Verdict<T>) => {
      if (!verdict) return;
      if ('settle' in verdict) finish(() => resolve(verdict.settle));
      else finish(() => reject(verdict.fail));
    };
    const first = wait.look(undefined);
    if (first) return apply(first);
    const paneUid = wait.pane.uid;
    cleanups.push(
      parts.events.listen((event) => {
        if (event.meta.paneUid === paneUid || event.line.event === 'workspace_closed') apply(wait.look(event));
      }),
    );
    for (const after of wait.lookAgainAfterMs ?? []) {
      const timer = setTimeout(() => apply(wait.look(undefined)), after);
      cleanups.push(() => clearTimeout(timer));
    }
    cleanups.push(
      deadline(wait.timeoutMs, () =>
        finish(() => {
          wait.onTimeout?.();
          reject(wait.timedOut());
        }),
      ),
    );
  });
}
