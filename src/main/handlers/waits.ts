/** `pane.wait_for_output` (docs/protocol.md §8). */
import { ProtocolError } from '../../protocol/errors.js';
import { readWindow } from '../../protocol/read-window.js';
import type { OpenCounts } from '../open-counts.js';
import { checkPattern } from '../patterns.js';
import type { Registry } from '../registry.js';
import type { Router } from '../router.js';
import { type OutputWatchParts, watchOutput } from '../waits/output-watch.js';
import { deadline, openWait } from '../waits/pending-wait.js';

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
