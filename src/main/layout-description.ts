/**
 * A workspace's split tree as the wire shows it (docs/protocol.md §5.2):
 * `layout.export`, the answer of `layout.apply`, and one per workspace in
 * `session.snapshot`. Each leaf says what the pane would need to be started
 * again: its label, its directory now, the argv and environment it was
 * started with.
 */
import type { LayoutDescription, LayoutTreeNode } from '../protocol/layout-tree.js';
import { currentPaneIds, paneIds, tabStableId, withCurrentView, workspaceStableId } from './ids.js';
import type { LayoutNode } from './layout.js';
import type { Registry, TabRecord } from './registry.js';

/** A tab's layout as the wire shows it (docs/protocol.md §5.2). */
export function describeLayout(registry: Registry, tab: TabRecord): LayoutDescription {
  const { workspace } = tab;
  const focused = registry.paneByUid(tab.focusedPaneUid) ?? registry.rootPane(tab);
  return withCurrentView({
    workspace_id: String(workspace.position),
    tab_id: tabStableId(workspace.uid, tab.uid),
    zoomed: tab.zoomed,
    focused_pane_id: focused ? paneIds(focused).pane_id : '',
    root: describeNode(registry, tab.layout),
  }, { workspace_id: workspaceStableId(workspace.uid), ...(focused ? { focused_pane_id: currentPaneIds(focused).pane_id } : {}) });
}

function describeNode(registry: Registry, node: LayoutNode): LayoutTreeNode {
  if (node.kind === 'split') {
    const { direction, ratio } = node;
    return { type: 'split', direction, ratio, first: describeNode(registry, node.first), second: describeNode(registry, node.second) };
  }
  const pane = registry.paneByUid(node.paneUid);
  if (!pane) return { type: 'pane' };
  // Absent fields are left out of the JSON (undefined is not written).
  return withCurrentView<LayoutTreeNode>({
    type: 'pane',
    pane_id: paneIds(pane).pane_id,
    label: pane.label,
    cwd: pane.cwd,
    command: pane.launch.command,
    env: pane.launch.env,
  }, { pane_id: currentPaneIds(pane).pane_id });
}
