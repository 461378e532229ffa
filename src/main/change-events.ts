/**
 * The data of herdr's change events (protocol/event-catalogue.ts, docs/protocol.md §9.2),
 * built from the registry's records, for the operations that cause them. Each helper
 * adds one event to a sink: a request's batch (sent after the answer, §9.3) or, for a
 * change no request made (a timer, a shard's report), the hub at once (`hubSink`).
 *
 * Ids follow the dialects as in every event: compact on the 0.2.0 wire, stable on the
 * current one (ids.ts `withCurrentView`). A move changes a pane's or workspace's ids, so
 * the ids it had are taken before the move (`placeBefore`, `workspaceIdsBefore`).
 */
import type { PaneScroll } from '../protocol/event-catalogue.js';
import type { EventName, Events } from '../protocol/events.js';
import type { EventBatch, EventHub } from './event-hub.js';
import { type EventMeta, currentPaneIds, paneIds, paneMeta, paneRef, tabStableId, withCurrentView, workspaceMeta, workspaceRef, workspaceStableId } from './ids.js';
import type { PaneRecord, Registry, TabRecord, WorkspaceRecord } from './registry.js';
import { paneInfo, tabInfo, workspaceInfo } from './wire-views.js';

/** Where an event goes. */
export interface EventSink {
  addEvent<E extends EventName>(event: E, data: Events[E], meta?: EventMeta): void;
}

/** The hub as a sink: published at once. */
export function hubSink(hub: EventHub): EventSink {
  return { addEvent: (event, data, meta) => void hub.publishEvent(event, data, meta) };
}

/** What pane_info shows changed: its terminal's title, its label, reported metadata, its agent's name. */
export function paneUpdated(registry: Registry, pane: PaneRecord, to: EventSink): void {
  to.addEvent('pane_updated', { pane: paneInfo(registry, pane) }, paneMeta(pane));
}

/** The tokens reported for a workspace changed. */
export function workspaceMetadataUpdated(registry: Registry, workspace: WorkspaceRecord, to: EventSink): void {
  to.addEvent('workspace_metadata_updated', { workspace: workspaceInfo(registry, workspace) }, workspaceMeta(workspace));
}

/** A workspace's facts changed other than by a rename or its metadata (herdr: its worktree). */
export function workspaceUpdated(registry: Registry, workspace: WorkspaceRecord, to: EventSink): void {
  to.addEvent('workspace_updated', { workspace: workspaceInfo(registry, workspace) }, workspaceMeta(workspace));
}

/** After `workspace.move`: the workspace is at `insertIndex` (0-based) of the list. */
export function workspaceMoved(registry: Registry, workspace: WorkspaceRecord, insertIndex: number, to: EventSink): void {
  to.addEvent(
    'workspace_moved',
    { ...workspaceRef(workspace), insert_index: insertIndex, workspaces: registry.workspaces.map((each) => workspaceInfo(registry, each)) },
    workspaceMeta(workspace),
  );
}

/** After `workspace.move_block`: `moved` stand together, in this order, before `before` (undefined: at the end). */
export function workspacesReordered(registry: Registry, moved: readonly WorkspaceRecord[], before: WorkspaceRecord | undefined, to: EventSink): void {
  const data = withCurrentView(
    {
      workspace_ids: moved.map((workspace) => String(workspace.position)),
      ...(before ? { before_workspace_id: String(before.position) } : {}),
      workspaces: registry.workspaces.map((each) => workspaceInfo(registry, each)),
    },
    {
      workspace_ids: moved.map((workspace) => workspaceStableId(workspace.uid)),
      ...(before ? { before_workspace_id: workspaceStableId(before.uid) } : {}),
    },
  );
  to.addEvent('workspace_reordered', data);
}

/** After `tab.move`: the tab is at `insertIndex` (0-based) of its workspace's tabs. */
export function tabMoved(registry: Registry, tab: TabRecord, insertIndex: number, to: EventSink): void {
  const { workspace } = tab;
  to.addEvent(
    'tab_moved',
    withCurrentView(
      { tab_id: tabStableId(workspace.uid, tab.uid), workspace_id: String(workspace.position), insert_index: insertIndex, tabs: workspace.tabs.map((each) => tabInfo(registry, each)) },
      { workspace_id: workspaceStableId(workspace.uid) },
    ),
    workspaceMeta(workspace),
  );
}

/** A pane's ids where it was, in both forms, taken before it moves. */
export interface PanePlaceBefore {
  compact: { pane_id: string; workspace_id: string };
  current: { pane_id: string; workspace_id: string };
  tab_id: string;
}

export function placeBefore(pane: PaneRecord): PanePlaceBefore {
  const { pane_id, workspace_id } = paneIds(pane);
  return { compact: { pane_id, workspace_id }, current: currentPaneIds(pane), tab_id: tabStableId(pane.workspace.uid, pane.tab.uid) };
}

/** A workspace's id in both forms, taken before it closes or moves. */
export interface WorkspaceIdsBefore {
  compact: string;
  current: string;
}

export function workspaceIdsBefore(workspace: WorkspaceRecord): WorkspaceIdsBefore {
  return { compact: String(workspace.position), current: workspaceStableId(workspace.uid) };
}

/** What a move made or emptied on its way, for `pane_moved`. */
export interface PaneMoveSideEffects {
  createdWorkspace?: WorkspaceRecord | undefined;
  createdTab?: TabRecord | undefined;
  /** The tab it left, closed for being empty (its id, taken before). */
  closedTabId?: string | undefined;
  /** The workspace it left, closed for being empty (its ids, taken before). */
  closedWorkspace?: WorkspaceIdsBefore | undefined;
}

/** After `pane.move`: where the pane was (`before`), where it is now, and what the move made or closed. */
export function paneMoved(registry: Registry, before: PanePlaceBefore, pane: PaneRecord, effects: PaneMoveSideEffects, to: EventSink): void {
  const { createdWorkspace, createdTab, closedTabId, closedWorkspace } = effects;
  const data = withCurrentView(
    {
      previous_pane_id: before.compact.pane_id,
      previous_workspace_id: before.compact.workspace_id,
      previous_tab_id: before.tab_id,
      pane: paneInfo(registry, pane),
      ...(createdWorkspace ? { created_workspace: workspaceInfo(registry, createdWorkspace) } : {}),
      ...(createdTab ? { created_tab: tabInfo(registry, createdTab) } : {}),
      ...(closedWorkspace ? { closed_workspace_id: closedWorkspace.compact } : {}),
      ...(closedTabId !== undefined ? { closed_tab_id: closedTabId } : {}),
    },
    {
      previous_pane_id: before.current.pane_id,
      previous_workspace_id: before.current.workspace_id,
      ...(closedWorkspace ? { closed_workspace_id: closedWorkspace.current } : {}),
    },
  );
  to.addEvent('pane_moved', data, paneMeta(pane));
}

/** A pane's view scrolled (`pane.scroll`), or how far it can scroll changed. */
export function paneScrollChanged(pane: PaneRecord, scroll: PaneScroll, to: EventSink): void {
  to.addEvent('pane.scroll_changed', { ...paneRef(pane), scroll }, paneMeta(pane));
}
