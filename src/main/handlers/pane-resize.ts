/**
 * `pane.resize` (docs/protocol.md §5) in both its forms: `{cols, rows}` sets the
 * PTY's size (ours), `{direction, amount?}` moves the border beside the pane
 * (herdr's current one), answers herdr's `pane_resize` with the layout after it and,
 * when a border moved, emits herdr's `layout_updated` with that layout.
 */
import type { MethodParams, MethodResults } from '../../protocol/methods.js';
import type { EventBatch } from '../event-hub.js';
import { currentViewOf, currentPaneIds, paneIds, withCurrentView, workspaceMeta } from '../ids.js';
import { borderStep, moveBorder } from '../layout.js';
import type { PaneOperations } from '../operations/panes.js';
import { flatLayout } from '../flat-layout.js';
import type { Registry } from '../registry.js';
import type { Router } from '../router.js';
import { paneInfo } from '../wire-views.js';

type BorderMove = Exclude<MethodParams<'pane.resize'>, { cols: number }>;

function moveBorderOf(registry: Registry, params: BorderMove, batch: EventBatch): MethodResults['pane.resize'] {
  const pane = registry.resolvePaneOrFocused(params.pane_id);
  const tab = pane.tab;
  const before = tab.layout;
  tab.layout = moveBorder(before, pane.uid, params.direction, borderStep(params.amount));
  const changed = tab.layout !== before;
  const layout = flatLayout(registry, tab);
  if (changed) batch.add('layout_updated', { layout }, workspaceMeta(pane.workspace));
  const focusedCurrent = currentViewOf(layout)?.focused_pane_id;
  const resize = withCurrentView(
    { changed, ...(changed ? {} : { reason: 'unchanged' as const }), pane_id: paneIds(pane).pane_id, focused_pane_id: layout.focused_pane_id, layout },
    { pane_id: currentPaneIds(pane).pane_id, ...(focusedCurrent === undefined ? {} : { focused_pane_id: focusedCurrent }) },
  );
  return { type: 'pane_resize', resize };
}

export function registerPaneResizeHandler(router: Router, { registry, panes }: { registry: Registry; panes: PaneOperations }): void {
  router.register('pane.resize', async (params, { batch }) => {
    if (!('cols' in params)) return moveBorderOf(registry, params, batch);
    const pane = registry.resolvePane(params.pane_id);
    await panes.resize(pane, params.cols, params.rows);
    return { type: 'pane_info', pane: paneInfo(registry, pane) };
  });
}
