/**
 * `pane.move` (docs/protocol.md §5.4): a pane goes beside a pane of another tab, into a
 * new tab, or into a new workspace, with its process, its screen and its history as they
 * are (only the registry changes; its terminal stays in the shard it runs in). Everything
 * is checked before anything changes; a move out of or into a zoomed tab, or into the
 * pane's own tab, changes nothing and says why, as herdr answers it.
 */
import { ProtocolError } from '../../protocol/errors.js';
import type { MethodParams, MethodResults } from '../../protocol/methods.js';
import type { EventBatch } from '../event-hub.js';
import { flatLayout } from '../flat-layout.js';
import { addFocusEvents } from '../focus-events.js';
import { currentPaneIds, currentViewOf, paneIds, paneMeta, tabRef, tabStableId, withCurrentView, workspaceMeta, workspaceRef, workspaceStableId } from '../ids.js';
import type { ReportedMetadata } from '../metadata.js';
import type { MoveDestination, PaneRecord, Registry, TabRecord } from '../registry.js';
import { paneInfo, tabInfo, workspaceInfo } from '../wire-views.js';
import { clampRatio } from './navigation.js';

type MoveParams = MethodParams<'pane.move'>;
type MoveResult = MethodResults['pane.move']['move_result'];

/** The ids a pane had before it moved, in both dialects. */
interface Before {
  paneId: string;
  paneCurrentId: string;
  workspaceId: string;
  workspaceCurrentId: string;
  tabId: string;
}

export class PaneMoves {
  constructor(
    private readonly registry: Registry,
    private readonly metadata: ReportedMetadata,
  ) {}

  move(pane: PaneRecord, params: MoveParams, batch: EventBatch): MoveResult {
    const before: Before = {
      paneId: paneIds(pane).pane_id,
      paneCurrentId: currentPaneIds(pane).pane_id,
      workspaceId: String(pane.workspace.position),
      workspaceCurrentId: workspaceStableId(pane.workspace.uid),
      tabId: tabStableId(pane.workspace.uid, pane.tab.uid),
    };
    const sourceTab = pane.tab;
    if (sourceTab.zoomed) return this.unchanged(pane, before, 'zoomed_tab', sourceTab, sourceTab);
    const focus = params.focus ?? false;
    const { destination } = params;
    let to: MoveDestination;
    if (destination.type === 'tab') {
      const tab = this.registry.resolveTab(destination.tab_id);
      if (tab === sourceTab) return this.unchanged(pane, before, 'same_tab', sourceTab, sourceTab);
      if (tab.zoomed) return this.unchanged(pane, before, 'zoomed_tab', sourceTab, tab);
      const target = this.targetIn(tab, destination.target_pane_id, destination.tab_id);
      to = { kind: 'tab', tab, target, direction: destination.split, ratio: clampRatio(destination.ratio ?? 0.5), focus };
    } else if (destination.type === 'new_tab') {
      const workspace = destination.workspace_id === undefined ? pane.workspace : this.registry.resolveWorkspace(destination.workspace_id);
      to = { kind: 'new_tab', workspace, tabUid: this.registry.reserveTabUid(workspace), label: destination.label, focus };
    } else {
      to = { kind: 'new_workspace', workspaceUid: this.registry.reserveWorkspaceUid(), label: destination.label, tabLabel: destination.tab_label, focus };
    }

    const focusBefore = this.registry.focusKey();
    const source = pane.workspace;
    const closedTab = tabRef(sourceTab);
    const closedWorkspace = workspaceRef(source);
    const outcome = this.registry.movePane(pane, to);
    if (outcome.sourceWorkspaceClosed) this.metadata.workspaceGone(source);

    const created_workspace = outcome.createdWorkspace && workspaceInfo(this.registry, outcome.createdWorkspace);
    const created_tab = outcome.createdTab && tabInfo(this.registry, outcome.createdTab);
    const sourceLayout = outcome.sourceTabClosed ? undefined : flatLayout(this.registry, sourceTab);
    const targetLayout = flatLayout(this.registry, outcome.tab);
    if (outcome.sourceTabClosed) batch.add('tab_closed', closedTab, workspaceMeta(source));
    if (outcome.sourceWorkspaceClosed) batch.add('workspace_closed', closedWorkspace, workspaceMeta(source));
    if (outcome.createdWorkspace && created_workspace) batch.add('workspace_created', { workspace: created_workspace }, workspaceMeta(outcome.createdWorkspace));
    if (outcome.createdTab && created_tab) batch.add('tab_created', { tab: created_tab }, workspaceMeta(outcome.createdTab.workspace));
    const result = this.result(pane, before, outcome.tab, {
      changed: true,
      source_layout: sourceLayout,
      target_layout: targetLayout,
      created_workspace,
      created_tab,
      closed: {
        tab: outcome.sourceTabClosed ? before.tabId : undefined,
        workspace: outcome.sourceWorkspaceClosed ? [before.workspaceId, before.workspaceCurrentId] : undefined,
      },
    });
    // herdr's pane.moved: the answer's fields that say where it was, where it is, what was made and closed (their ids' views ride along).
    const { previous_pane_id, previous_workspace_id, previous_tab_id, closed_workspace_id, closed_tab_id } = result;
    const moved = { previous_pane_id, previous_workspace_id, previous_tab_id, pane: result.pane, created_workspace, created_tab, closed_workspace_id, closed_tab_id };
    const view = currentViewOf(result);
    const movedView = { previous_pane_id: view?.previous_pane_id, previous_workspace_id: view?.previous_workspace_id };
    batch.addEvent('pane_moved', withCurrentView(moved, closed_workspace_id === undefined ? movedView : { ...movedView, closed_workspace_id: view?.closed_workspace_id }), paneMeta(pane));
    if (sourceLayout) batch.add('layout_updated', { layout: sourceLayout }, workspaceMeta(source));
    batch.add('layout_updated', { layout: targetLayout }, workspaceMeta(outcome.tab.workspace));
    addFocusEvents(this.registry, focusBefore, batch);
    return result;
  }

  /** The pane of `tab` named, else the tab's focused pane; `target_pane_not_found` for one elsewhere or nowhere. */
  private targetIn(tab: TabRecord, id: string | undefined, tabId: string): PaneRecord {
    if (id === undefined) {
      const focused = this.registry.paneByUid(tab.focusedPaneUid) ?? this.registry.rootPane(tab);
      if (!focused) throw new ProtocolError('tab_not_found', `tab ${tabId} has no pane`);
      return focused;
    }
    let target: PaneRecord | undefined;
    try {
      target = this.registry.resolvePane(id);
    } catch {
      throw new ProtocolError('target_pane_not_found', `target pane ${id} not found`);
    }
    if (target.tab !== tab) throw new ProtocolError('target_pane_not_found', `target pane ${id} is not in tab ${tabId}`);
    return target;
  }

  private unchanged(pane: PaneRecord, before: Before, reason: 'same_tab' | 'zoomed_tab', source: TabRecord, target: TabRecord): MoveResult {
    return this.result(pane, before, target, {
      changed: false,
      reason,
      source_layout: flatLayout(this.registry, source),
      target_layout: flatLayout(this.registry, target),
      created_workspace: undefined,
      created_tab: undefined,
      closed: { tab: undefined, workspace: undefined },
    });
  }

  private result(
    pane: PaneRecord,
    before: Before,
    targetTab: TabRecord,
    parts: Pick<MoveResult, 'changed' | 'reason' | 'source_layout' | 'target_layout' | 'created_workspace' | 'created_tab'> & {
      closed: { tab: string | undefined; workspace: [string, string] | undefined };
    },
  ): MoveResult {
    const { closed, target_layout } = parts;
    const focused = this.registry.paneByUid(targetTab.focusedPaneUid) ?? this.registry.rootPane(targetTab);
    return withCurrentView<MoveResult>(
      {
        changed: parts.changed,
        reason: parts.reason,
        previous_pane_id: before.paneId,
        previous_workspace_id: before.workspaceId,
        previous_tab_id: before.tabId,
        pane: paneInfo(this.registry, pane),
        source_layout: parts.source_layout,
        target_layout,
        created_workspace: parts.created_workspace,
        created_tab: parts.created_tab,
        closed_workspace_id: closed.workspace?.[0],
        closed_tab_id: closed.tab,
        focused_pane_id: target_layout.focused_pane_id,
      },
      {
        previous_pane_id: before.paneCurrentId,
        previous_workspace_id: before.workspaceCurrentId,
        ...(closed.workspace ? { closed_workspace_id: closed.workspace[1] } : {}),
        ...(focused ? { focused_pane_id: currentPaneIds(focused).pane_id } : {}),
      },
    );
  }
}
