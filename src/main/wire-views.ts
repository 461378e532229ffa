/**
 * The registry's records as the wire shows them (`pane_info`, `workspace_info`,
 * docs/protocol.md §4): ids computed from positions now, the cached facts,
 * and a workspace's aggregate agent state.
 */
import type { AgentInfo, AgentState, PaneInfo, TabInfo, WorkspaceInfo } from '../protocol/objects.js';
import type { PaneScrollInfo } from '../protocol/pane-scroll.js';
import { aggregateStatus, agentStatus } from './agents/agent-status.js';
import { instanceOf, nameOf } from './agents/occupants.js';
import { reportedTitle } from './metadata.js';
import { currentPaneIds, paneIds, tabStableId, withCurrentView, workspaceStableId } from './ids.js';
import type { PaneRecord, Registry, TabRecord, WorkspaceRecord } from './registry.js';

const AGGREGATE_PRIORITY = ['blocked', 'idle-unseen', 'working', 'idle-seen', 'unknown'] as const;

/** Built as one literal (object spread here cost ~13 µs a pane in `pane.list`). */
export function paneInfo(registry: Registry, pane: PaneRecord): PaneInfo {
  const ids = paneIds(pane);
  return withCurrentView<PaneInfo>({
    pane_id: ids.pane_id,
    workspace_id: ids.workspace_id,
    stable_id: ids.stable_id,
    focused: registry.isFocused(pane),
    cwd: pane.cwd,
    label: pane.label,
    agent: pane.occupant.agent,
    agent_state: pane.occupant.state,
    agent_status: agentStatus(pane),
    agent_state_since: pane.occupant.stateSince,
    agent_source: pane.occupant.source,
    agent_message: pane.occupant.message,
    agent_session: pane.occupant.session,
    last_exit_code: pane.lastExitCode,
    output_active: pane.output.activeSince !== undefined,
    last_output_at: pane.output.lastAt,
    output_active_since: pane.output.activeSince,
    queued_prompts: pane.occupant.queuedPrompts || undefined,
    restored: pane.restored || undefined,
    previous_agent_session: pane.occupant.previousSession,
    revision: pane.revision,
    tab_id: tabStableId(pane.workspace.uid, pane.tab.uid),
    foreground_cwd: pane.foregroundCwd ?? pane.cwd,
    terminal_id: pane.terminalId,
    terminal_title: pane.title || undefined,
    agent_instance_id: pane.occupant.instanceId,
    scroll: scrollInfo(pane),
    right_click: pane.rightClick ?? 'herdr',
    cols: pane.cols,
    rows: pane.rows,
    pid: pane.pid,
    title: pane.title || undefined,
    tokens: pane.reported?.tokens,
    display_agent: pane.reported?.displayAgent,
    state_labels: pane.reported?.stateLabels,
  }, { ...currentPaneIds(pane), title: reportedTitle(pane), agent_session: currentAgentSession(pane) });
}

/** herdr's PaneScrollInfo from the position the pane's shard last told. */
export function scrollInfo(pane: PaneRecord): PaneScrollInfo {
  const { offsetFromBottom, maxOffsetFromBottom, viewportRows } = pane.scroll;
  return { offset_from_bottom: offsetFromBottom, max_offset_from_bottom: maxOffsetFromBottom, viewport_rows: viewportRows };
}

/**
 * herdr's current `agent_session {source, agent, kind, value}`: one reference, the id when
 * the hook gave one, else the path; left out when who reported it or for which agent is unknown.
 */
function currentAgentSession(pane: PaneRecord): { source: string; agent: string; kind: 'id' | 'path'; value: string } | undefined {
  const { session, sessionSource: source, agent } = pane.occupant;
  if (!session || source === undefined || agent === undefined) return undefined;
  if (session.id !== undefined) return { source, agent, kind: 'id', value: session.id };
  return session.path === undefined ? undefined : { source, agent, kind: 'path', value: session.path };
}

/** A pane's agent as the agent API shows it; only for a pane that hosts one (occupants.ts `hostsAgent`). */
export function agentInfo(registry: Registry, pane: PaneRecord): AgentInfo {
  const ids = paneIds(pane);
  return withCurrentView<AgentInfo>({
    agent_instance_id: instanceOf(pane) ?? '',
    name: nameOf(pane),
    agent: pane.occupant.agent ?? pane.occupant.start?.kind ?? '',
    agent_status: agentStatus(pane),
    agent_state: pane.occupant.state,
    agent_state_since: pane.occupant.stateSince,
    agent_source: pane.occupant.source,
    agent_message: pane.occupant.message,
    state_change_seq: pane.occupant.stateChangeSeq,
    queued_prompts: pane.occupant.queuedPrompts || undefined,
    launch_pending: pane.occupant.agent === undefined && pane.occupant.start ? true : undefined,
    pane_id: ids.pane_id,
    workspace_id: ids.workspace_id,
    terminal_id: ids.stable_id,
    focused: registry.isFocused(pane),
    cwd: pane.cwd,
    label: pane.label,
    title: reportedTitle(pane),
    terminal_title: pane.title || undefined,
    revision: pane.revision,
    // herdr's AgentInfo requires the tab (docs/protocol.md §15.3); the 0.2.0 wire keeps its shape.
  }, { ...currentPaneIds(pane), tab_id: tabStableId(pane.workspace.uid, pane.tab.uid) });
}

export function workspaceInfo(registry: Registry, workspace: WorkspaceRecord): WorkspaceInfo {
  return withCurrentView<WorkspaceInfo>({
    workspace_id: String(workspace.position),
    number: workspace.position,
    label: workspaceLabel(registry, workspace),
    focused: registry.activeWorkspace === workspace,
    pane_count: workspace.panes.length,
    agent_state: aggregateState(workspace.panes),
    agent_status: aggregateStatus(workspace.panes),
    stable_id: workspaceStableId(workspace.uid),
    tab_count: workspace.tabs.length,
    active_tab_id: tabStableId(workspace.uid, workspace.activeTab.uid),
    tokens: workspace.reportedTokens,
    worktree: workspace.worktree,
  }, { workspace_id: workspaceStableId(workspace.uid) });
}

/** herdr's TabInfo (docs/protocol.md §5.3). */
export function tabInfo(registry: Registry, tab: TabRecord): TabInfo {
  const panes = registry.tabPanes(tab);
  return withCurrentView<TabInfo>({
    tab_id: tabStableId(tab.workspace.uid, tab.uid),
    workspace_id: String(tab.workspace.position),
    number: tab.workspace.tabs.indexOf(tab) + 1,
    label: tab.customLabel ?? directoryLabel(registry, tab),
    focused: registry.isFocusedTab(tab),
    pane_count: panes.length,
    agent_status: aggregateStatus(panes),
  }, { workspace_id: workspaceStableId(tab.workspace.uid) });
}

/** The label a client set, else its first tab's directory label. */
function workspaceLabel(registry: Registry, workspace: WorkspaceRecord): string {
  const first = workspace.tabs[0];
  return workspace.customLabel ?? (first ? directoryLabel(registry, first) : 'shell');
}

/** A tab's label from its root pane's directory (docs/protocol.md §4), `shell` while unknown. */
function directoryLabel(registry: Registry, tab: TabRecord): string {
  return registry.rootPane(tab)?.cwdLabel ?? 'shell';
}

/** docs/protocol.md §10.4: the state of the workspace's highest-priority pane. */
export function aggregateState(panes: readonly PaneRecord[]): AgentState {
  let best: number = AGGREGATE_PRIORITY.length - 1;
  for (const pane of panes) {
    const rank =
      pane.occupant.state === 'idle'
        ? AGGREGATE_PRIORITY.indexOf(pane.seen ? 'idle-seen' : 'idle-unseen')
        : AGGREGATE_PRIORITY.indexOf(pane.occupant.state);
    best = Math.min(best, rank);
  }
  const top = AGGREGATE_PRIORITY[best];
  return top === 'idle-seen' || top === 'idle-unseen' ? 'idle' : (top ?? 'unknown');
}
