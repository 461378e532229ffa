/**
 * Layout and navigation (docs/protocol.md §5.4): focus by pane and by direction, swapping
 * and zooming panes, a split's ratio, and the order of tabs and workspaces. Each changes
 * the registry and adds its events to the request's batch: the focus events, and herdr's
 * `layout_updated` with the tab's flat layout whenever its tree, zoom or focus changed.
 * Directions are worked out on the cells the flat layout draws (layout-navigation.ts).
 */
import type { PaneDirection } from '../../protocol/enums.js';
import { ProtocolError } from '../../protocol/errors.js';
import type { PaneLayoutSnapshot } from '../../protocol/pane-layout.js';
import { lookedAt } from '../agents/agent-status.js';
import type { EventBatch } from '../event-hub.js';
import { addFocusEvents, withFocusEvents } from '../focus-events.js';
import { addLayoutUpdated } from '../layout-events.js';
import { layoutOrder, withRatioAt } from '../layout.js';
import { type CellRect, type PlacedPane, placeLayout, tiledArea } from '../layout-geometry.js';
import { neighborOf } from '../layout-navigation.js';
import type { PaneRecord, Registry, TabRecord, WorkspaceRecord } from '../registry.js';

/** The band herdr keeps a ratio set by `layout.set_split_ratio` (and a moved pane's split) in. */
export const MIN_SET_RATIO = 0.1;
export const MAX_SET_RATIO = 0.9;

export function clampRatio(ratio: number): number {
  return Math.min(MAX_SET_RATIO, Math.max(MIN_SET_RATIO, ratio));
}

export type ZoomMode = 'toggle' | 'on' | 'off';

export interface ZoomOutcome {
  zoomChanged: boolean;
  focusChanged: boolean;
  reason: 'single_pane' | 'already_zoomed' | 'already_unzoomed' | undefined;
}

export class NavigationOperations {
  constructor(private readonly registry: Registry) {}

  /** Where a tab's panes are drawn (the flat layout's cells). */
  placed(tab: TabRecord): { area: CellRect; panes: PlacedPane[] } {
    const area = tiledArea(tab.layout, (uid) => this.registry.paneByUid(uid));
    return { area, panes: placeLayout(tab.layout, area).panes };
  }

  /** The pane beside `pane` that way in its tab, if any. */
  neighbor(pane: PaneRecord, direction: PaneDirection): PaneRecord | undefined {
    const uid = neighborOf(this.placed(pane.tab).panes, pane.uid, direction);
    return uid === undefined ? undefined : this.registry.paneByUid(uid);
  }

  /** The pane gets the focus: its tab becomes active, its workspace too; the tab's panes count as looked at (§13.2). */
  focus(pane: PaneRecord, batch: EventBatch): boolean {
    const changed = withFocusEvents(this.registry, batch, () => {
      const before = this.registry.focusKey();
      this.registry.focusPane(pane);
      return this.registry.focusKey() !== before;
    });
    for (const shown of this.registry.tabPanes(pane.tab)) lookedAt(shown, batch);
    return changed;
  }

  /** Focuses the neighbour that way; undefined (nothing changed) at an outer edge. */
  focusDirection(source: PaneRecord, direction: PaneDirection, batch: EventBatch): PaneRecord | undefined {
    const target = this.neighbor(source, direction);
    if (target) this.focus(target, batch);
    return target;
  }

  /**
   * Exchanges two panes' places in their tab; the source pane then has the focus (herdr's
   * rule, so the pane a person moved stays under their eyes).
   */
  swap(source: PaneRecord, target: PaneRecord, batch: EventBatch): boolean {
    if (!this.registry.swapPanes(source, target)) return false;
    withFocusEvents(this.registry, batch, () => this.registry.focusPane(source));
    this.layoutChanged(source.tab, batch);
    return true;
  }

  /** herdr's `pane.zoom`: the pane gets the focus first; a tab of one pane has nothing to zoom. */
  zoom(pane: PaneRecord, mode: ZoomMode, batch: EventBatch): ZoomOutcome {
    const before = this.registry.focusKey();
    this.registry.focusPane(pane);
    addFocusEvents(this.registry, before, batch);
    const focusChanged = this.registry.focusKey() !== before;
    const { tab } = pane;
    let reason: ZoomOutcome['reason'];
    if (layoutOrder(tab.layout).length <= 1) reason = 'single_pane';
    else if (mode === 'on' && tab.zoomed) reason = 'already_zoomed';
    else if (mode === 'off' && !tab.zoomed) reason = 'already_unzoomed';
    const zoomChanged = reason === undefined;
    if (zoomChanged) tab.zoomed = mode === 'toggle' ? !tab.zoomed : mode === 'on';
    if (zoomChanged || focusChanged) this.layoutChanged(tab, batch);
    return { zoomChanged, focusChanged, reason };
  }

  /** Sets the ratio of the split at `path` (kept within 0.1–0.9); `split_not_found` when no split is there. */
  setSplitRatio(tab: TabRecord, path: readonly boolean[], ratio: number, batch: EventBatch): void {
    const layout = withRatioAt(tab.layout, path, clampRatio(ratio));
    if (!layout) {
      throw new ProtocolError('split_not_found', `no split at path [${path.join(', ')}] of tab's tree (from the root: false the first child, true the second)`);
    }
    tab.layout = layout;
    // Told as herdr tells it, also when the ratio was already that.
    this.layoutChanged(tab, batch);
  }

  /** `insert_index` checked against the list as it is (its length: last); false when the tab is already there. */
  moveTab(tab: TabRecord, insertIndex: number): boolean {
    const { tabs } = tab.workspace;
    if (insertIndex > tabs.length) {
      throw new ProtocolError('tab_move_failed', `insert_index ${insertIndex} is out of bounds: the workspace has ${tabs.length} tab${tabs.length === 1 ? '' : 's'} (0 to ${tabs.length})`);
    }
    return this.registry.moveTab(tab, insertIndex);
  }

  moveWorkspace(workspace: WorkspaceRecord, insertIndex: number): boolean {
    const count = this.registry.workspaces.length;
    if (insertIndex > count) {
      throw new ProtocolError('workspace_move_failed', `insert_index ${insertIndex} is out of bounds: there are ${count} workspace${count === 1 ? '' : 's'} (0 to ${count})`);
    }
    return this.registry.moveWorkspace(workspace, insertIndex);
  }

  /** The block's workspaces, each once, go before `before` (not one of them), else to the end. */
  moveWorkspaceBlock(block: readonly WorkspaceRecord[], before: WorkspaceRecord | undefined, ids: { block: readonly string[]; before: string | undefined }): boolean {
    if (block.length === 0) throw new ProtocolError('workspace_move_block_failed', 'workspace_ids must not be empty');
    const seen = new Set<WorkspaceRecord>();
    block.forEach((workspace, index) => {
      if (seen.has(workspace)) throw new ProtocolError('workspace_move_block_failed', `workspace ${ids.block[index] ?? ''} appears more than once in workspace_ids`);
      seen.add(workspace);
    });
    if (before && seen.has(before)) throw new ProtocolError('workspace_move_block_failed', `before_workspace_id ${ids.before ?? ''} must not be one of workspace_ids`);
    return this.registry.moveWorkspaceBlock(block, before);
  }

  /** herdr's `layout_updated` with the tab's flat layout as it is now. */
  layoutChanged(tab: TabRecord, batch: EventBatch): PaneLayoutSnapshot {
    return addLayoutUpdated(this.registry, tab, batch);
  }
}
