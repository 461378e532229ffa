/**
 * `pane.scroll` (docs/protocol.md §5.4): moves a pane's view over its history, as a person
 * scrolls a terminal back; `pane.read` `visible` then reads that view. Ours: herdr's current
 * protocol keeps a scroll position per pane (`pane_info.scroll`, `pane.scroll_changed`) but
 * the schema we follow has no method to move it.
 */
import type { MethodParams } from '../../protocol/methods.js';
import type { ScrollMove } from '../../protocol/thread.js';
import { currentPaneIds, paneIds, paneMeta, paneRef, withCurrentView } from '../ids.js';
import type { PaneOperations } from '../operations/panes.js';
import type { Registry } from '../registry.js';
import type { Router } from '../router.js';
import { scrollInfo } from '../wire-views.js';

/** The request as the shard takes it (the params' check left exactly one way). */
function moveOf(params: MethodParams<'pane.scroll'>): ScrollMove {
  if (params.to !== undefined) return { to: params.to };
  if (params.offset_from_bottom !== undefined) return { offsetFromBottom: params.offset_from_bottom };
  const direction = params.direction ?? 'up';
  return params.lines !== undefined ? { by: 'lines', count: params.lines, direction } : { by: 'pages', count: params.pages ?? 1, direction };
}

export function registerPaneScrollHandler(router: Router, { registry, panes }: { registry: Registry; panes: PaneOperations }): void {
  router.register('pane.scroll', async (params, { batch }) => {
    const pane = registry.resolvePaneOrFocused(params.pane_id);
    const changed = await panes.scroll(pane, moveOf(params));
    if (changed) batch.addEvent('pane.scroll_changed', { ...paneRef(pane), scroll: scrollInfo(pane) }, paneMeta(pane));
    const { pane_id, workspace_id } = paneIds(pane);
    return { type: 'pane_scroll', scroll: withCurrentView({ changed, pane_id, workspace_id, scroll: scrollInfo(pane) }, currentPaneIds(pane)) };
  });
}
