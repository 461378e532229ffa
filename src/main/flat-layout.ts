/**
 * A layout tree flattened into herdr's PaneLayoutSnapshot (src/protocol/pane-layout.ts),
 * with the ids of both dialects (ids.ts). The wire keeps herdr's name; here it is the
 * *flat layout* (a snapshot is a session round).
 */
import type { PaneLayoutSnapshot } from '../protocol/pane-layout.js';
import { currentPaneIds, paneIds, tabStableId, withCurrentView, workspaceStableId } from './ids.js';
import { placeLayout, tiledArea } from './layout-geometry.js';
import type { Registry, TabRecord } from './registry.js';

/** herdr's split id: `split_<pre-order index>_root`, or `_<path>` in 0 (first child) and 1 (second). */
export function splitId(index: number, path: readonly boolean[]): string {
  return `split_${index}_${path.length === 0 ? 'root' : path.map((second) => (second ? '1' : '0')).join('')}`;
}

/** A tab's layout as herdr's PaneLayoutSnapshot. */
export function flatLayout(registry: Registry, tree: TabRecord): PaneLayoutSnapshot {
  const { workspace } = tree;
  const focused = registry.paneByUid(tree.focusedPaneUid) ?? registry.rootPane(tree);
  const area = tiledArea(tree.layout, (uid) => registry.paneByUid(uid));
  const placed = placeLayout(tree.layout, area);
  const panes = placed.panes.flatMap(({ paneUid, rect }) => {
    const pane = registry.paneByUid(paneUid);
    if (!pane) return [];
    return [withCurrentView({ pane_id: paneIds(pane).pane_id, focused: pane === focused, rect }, { pane_id: currentPaneIds(pane).pane_id })];
  });
  return withCurrentView<PaneLayoutSnapshot>({
    workspace_id: String(workspace.position),
    tab_id: tabStableId(workspace.uid, tree.uid),
    zoomed: tree.zoomed,
    area,
    focused_pane_id: focused ? paneIds(focused).pane_id : '',
    panes,
    splits: placed.splits.map(({ path, direction, ratio, rect }, index) => ({ id: splitId(index, path), direction, ratio, rect })),
  }, { workspace_id: workspaceStableId(workspace.uid), ...(focused ? { focused_pane_id: currentPaneIds(focused).pane_id } : {}) });
}
