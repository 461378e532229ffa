/**
 * Watching a pane's output for a match (docs/protocol.md §8): an output matcher in the
 * pane's shard, its flips to "match" handed to the watcher. Shared by pane.wait_for_output,
 * subscriptions, a prompt's echo and output rules.
 */
import { currentPaneIds, withCurrentView } from '../ids.js';
import type { OutputMatch } from '../../protocol/objects.js';
import type { MatchSpec, ReadWindow } from '../../protocol/read-window.js';
import type { PaneOperations } from '../operations/panes.js';
import type { OutputMatchers } from '../output-matchers.js';
import type { PaneShards } from '../pane-shards.js';
import type { PaneRecord } from '../registry.js';

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
  const { matcherId, ready } = parts.matchers.add(pane, parts.shards.of(pane), { ...window, pattern: match }, {
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
