/**
 * Layout and navigation methods of herdr's current protocol (docs/protocol.md §5.4):
 * `pane.layout`, `pane.edges`, `pane.neighbor`, `pane.focus`, `pane.focus_direction`,
 * `pane.swap`, `pane.zoom`, `pane.move`, `tab.move`, `workspace.move`,
 * `workspace.move_block` and `layout.set_split_ratio`. Answers carry both dialects' ids
 * (ids.ts `withCurrentView`); what they change is in operations/navigation.ts and
 * operations/pane-move.ts.
 */
import { ProtocolError } from '../../protocol/errors.js';
import type { MethodParams, MethodResults } from '../../protocol/methods.js';
import type { EventBatch } from '../event-hub.js';
import { flatLayout } from '../flat-layout.js';
import { currentPaneIds, paneIds, tabRef, withCurrentView, workspaceMeta, workspaceRef, workspaceStableId } from '../ids.js';
import { describeLayout } from '../layout-description.js';
import { edgesOf } from '../layout-navigation.js';
import type { NavigationOperations } from '../operations/navigation.js';
import type { PaneMoves } from '../operations/pane-move.js';
import type { PaneRecord, Registry, TabRecord } from '../registry.js';
import type { Router } from '../router.js';
import { paneInfo, tabInfo, workspaceInfo } from '../wire-views.js';

export interface NavigationParts {
  registry: Registry;
  navigation: NavigationOperations;
  paneMoves: PaneMoves;
}

/** `{...fields}` whose pane id fields read as stable ids for a current client. */
function withPaneIds<T extends object>(value: T, panes: Partial<Record<keyof T, PaneRecord | undefined>>): T {
  const current: Record<string, string> = {};
  for (const [key, pane] of Object.entries(panes) as Array<[string, PaneRecord | undefined]>) if (pane) current[key] = currentPaneIds(pane).pane_id;
  return withCurrentView(value, current);
}

export function registerNavigationHandlers(router: Router, { registry, navigation, paneMoves }: NavigationParts): void {
  router.register('pane.layout', (params) => ({ type: 'pane_layout', layout: flatLayout(registry, registry.resolvePaneOrFocused(params.pane_id).tab) }));

  router.register('pane.edges', (params) => {
    const pane = registry.resolvePaneOrFocused(params.pane_id);
    const { area, panes } = navigation.placed(pane.tab);
    const rect = panes.find((placed) => placed.paneUid === pane.uid)?.rect ?? area;
    const edges = { pane_id: paneIds(pane).pane_id, ...edgesOf(rect, area), layout: flatLayout(registry, pane.tab) };
    return { type: 'pane_edges', edges: withPaneIds(edges, { pane_id: pane }) };
  });

  router.register('pane.neighbor', (params) => {
    const pane = registry.resolvePaneOrFocused(params.pane_id);
    const neighbor = navigation.neighbor(pane, params.direction);
    const answer = {
      pane_id: paneIds(pane).pane_id,
      direction: params.direction,
      neighbor_pane_id: neighbor && paneIds(neighbor).pane_id,
      layout: flatLayout(registry, pane.tab),
    };
    return { type: 'pane_neighbor', neighbor: withPaneIds(answer, { pane_id: pane, neighbor_pane_id: neighbor }) };
  });

  router.register('pane.focus', (params, { batch }) => {
    const pane = registry.resolvePane(params.pane_id);
    navigation.focus(pane, batch);
    return { type: 'pane_info', pane: paneInfo(registry, pane) };
  });

  router.register('pane.focus_direction', (params, { batch }) => {
    const source = registry.resolvePaneOrFocused(params.pane_id);
    const target = navigation.focusDirection(source, params.direction, batch);
    const focused = registry.paneByUid(source.tab.focusedPaneUid);
    const focus = {
      changed: target !== undefined,
      reason: target ? undefined : ('no_neighbor' as const),
      source_pane_id: paneIds(source).pane_id,
      focused_pane_id: focused && paneIds(focused).pane_id,
      layout: flatLayout(registry, source.tab),
    };
    return { type: 'pane_focus_direction', focus: withPaneIds(focus, { source_pane_id: source, focused_pane_id: focused }) };
  });

  router.register('pane.swap', (params, { batch }) => ({ type: 'pane_swap', swap: swapPanes(registry, navigation, params, batch) }));

  router.register('pane.zoom', (params, { batch }) => {
    const pane = registry.resolvePaneOrFocused(params.pane_id);
    const outcome = navigation.zoom(pane, params.mode ?? 'toggle', batch);
    const layout = flatLayout(registry, pane.tab);
    const focused = registry.paneByUid(pane.tab.focusedPaneUid);
    const zoom = {
      changed: outcome.zoomChanged || outcome.focusChanged,
      zoom_changed: outcome.zoomChanged,
      focus_changed: outcome.focusChanged,
      reason: outcome.reason,
      pane_id: paneIds(pane).pane_id,
      focused_pane_id: layout.focused_pane_id,
      zoomed: pane.tab.zoomed,
      layout,
    };
    return { type: 'pane_zoom', zoom: withPaneIds(zoom, { pane_id: pane, focused_pane_id: focused }) };
  });

  router.register('pane.move', (params, { batch }) => ({ type: 'pane_move', move_result: paneMoves.move(registry.resolvePane(params.pane_id), params, batch) }));

  // Told only when something moved, as herdr tells it.
  router.register('tab.move', (params, { batch }) => {
    const tab = registry.resolveTab(params.tab_id);
    const moved = navigation.moveTab(tab, params.insert_index);
    const tabs = tab.workspace.tabs.map((each) => tabInfo(registry, each));
    if (moved) batch.addEvent('tab_moved', { ...tabRef(tab), insert_index: params.insert_index, tabs }, workspaceMeta(tab.workspace));
    return { type: 'tab_list', tabs };
  });

  router.register('workspace.move', (params, { batch }) => {
    const workspace = registry.resolveWorkspace(params.workspace_id);
    const moved = navigation.moveWorkspace(workspace, params.insert_index);
    const workspaces = registry.workspaces.map((each) => workspaceInfo(registry, each));
    if (moved) batch.addEvent('workspace_moved', { ...workspaceRef(workspace), insert_index: params.insert_index, workspaces }, workspaceMeta(workspace));
    return { type: 'workspace_list', workspaces };
  });

  router.register('workspace.move_block', (params, { batch }) => {
    const block = params.workspace_ids.map((id) => registry.resolveWorkspace(id));
    const before = params.before_workspace_id === undefined ? undefined : registry.resolveWorkspace(params.before_workspace_id);
    const moved = navigation.moveWorkspaceBlock(block, before, { block: params.workspace_ids, before: params.before_workspace_id });
    const workspaces = registry.workspaces.map((each) => workspaceInfo(registry, each));
    if (moved) {
      const data = withCurrentView(
        { workspace_ids: block.map((each) => String(each.position)), before_workspace_id: before && String(before.position), workspaces },
        { workspace_ids: block.map((each) => workspaceStableId(each.uid)), ...(before ? { before_workspace_id: workspaceStableId(before.uid) } : {}) },
      );
      batch.addEvent('workspace_reordered', data);
    }
    return { type: 'workspace_list', workspaces };
  });

  router.register('layout.set_split_ratio', (params, { batch }) => {
    const tab = ratioTarget(registry, params);
    navigation.setSplitRatio(tab, params.path, params.ratio, batch);
    return { type: 'layout_split_ratio_set', layout: describeLayout(registry, tab) };
  });
}

/** The tab `layout.set_split_ratio` names: by tab, by pane, else the active workspace's active tab (`layout_not_found` otherwise). */
function ratioTarget(registry: Registry, params: MethodParams<'layout.set_split_ratio'>): TabRecord {
  if (params.tab_id !== undefined && params.pane_id !== undefined) throw new ProtocolError('layout_not_found', 'name tab_id or pane_id, not both');
  try {
    if (params.tab_id !== undefined) return registry.resolveTab(params.tab_id);
    if (params.pane_id !== undefined) return registry.resolvePane(params.pane_id).tab;
  } catch (error) {
    if (error instanceof ProtocolError) throw new ProtocolError('layout_not_found', error.message);
    throw error;
  }
  const active = registry.activeWorkspace;
  if (!active) throw new ProtocolError('layout_not_found', 'no workspace is open: name tab_id or pane_id');
  return active.activeTab;
}

type SwapAnswer = MethodResults['pane.swap']['swap'];
type SwapReason = SwapAnswer['reason'];

/**
 * herdr's two forms: `direction` (with `pane_id`, default the focused pane) swaps with the
 * neighbour that way; `source_pane_id` + `target_pane_id` swaps those two. A pair that
 * cannot swap (not found, one pane, different tabs) is answered unchanged with the reason,
 * as herdr answers it; asking for both forms, or neither, is `invalid_pane_swap`.
 */
function swapPanes(registry: Registry, navigation: NavigationOperations, params: MethodParams<'pane.swap'>, batch: EventBatch): SwapAnswer {
  const directional = params.direction !== undefined;
  const explicit = params.source_pane_id !== undefined || params.target_pane_id !== undefined;
  if (directional === explicit) {
    throw new ProtocolError('invalid_pane_swap', 'give either direction (with an optional pane_id) or source_pane_id and target_pane_id');
  }
  let source: PaneRecord | undefined;
  let target: PaneRecord | undefined;
  let reason: SwapReason;
  let tab: TabRecord;
  if (params.direction !== undefined) {
    if (params.pane_id === undefined && !registry.focusedPane) throw new ProtocolError('pane_not_found', 'no pane is focused (no workspace is open): name pane_id');
    source = registry.resolvePaneOrFocused(params.pane_id);
    tab = source.tab;
    target = navigation.neighbor(source, params.direction);
    if (!target) reason = 'no_neighbor';
  } else {
    if (params.source_pane_id === undefined) throw new ProtocolError('invalid_pane_swap', 'source_pane_id is missing');
    if (params.target_pane_id === undefined) throw new ProtocolError('invalid_pane_swap', 'target_pane_id is missing');
    source = lookUp(registry, params.source_pane_id);
    target = lookUp(registry, params.target_pane_id);
    const context = source?.tab ?? target?.tab ?? registry.activeWorkspace?.activeTab;
    if (!context) throw new ProtocolError('pane_not_found', `neither pane ${params.source_pane_id} nor pane ${params.target_pane_id} is there, and no workspace is open`);
    tab = context;
    if (!source || !target) reason = 'not_found';
    else if (source === target) reason = 'same_pane';
    else if (source.tab !== target.tab) reason = 'cross_tab';
  }
  const changed = reason === undefined && source !== undefined && target !== undefined && navigation.swap(source, target, batch);
  const layout = flatLayout(registry, tab);
  const focused = registry.paneByUid(tab.focusedPaneUid);
  // A pane that was not found is named as the request wrote it (herdr's answer).
  const sourceId = source ? paneIds(source).pane_id : (params.source_pane_id ?? '');
  const targetId = target ? paneIds(target).pane_id : params.target_pane_id;
  const answer: SwapAnswer = { changed, reason, source_pane_id: sourceId, target_pane_id: targetId, focused_pane_id: layout.focused_pane_id, layout };
  return withPaneIds(answer, { source_pane_id: source, target_pane_id: target, focused_pane_id: focused });
}

function lookUp(registry: Registry, id: string): PaneRecord | undefined {
  try {
    return registry.resolvePane(id);
  } catch {
    return undefined;
  }
}
