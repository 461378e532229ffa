/**
 * The registry's records as the wire shows them (`pane_info`, `workspace_info`,
 * docs/protocol.md §4): ids computed from positions now, the cached facts,
 * and a workspace's aggregate agent state.
 */
import type { AgentInfo, AgentState, PaneInfo, WorkspaceInfo } from '../protocol/objects.js';
import { aggregateStatus, agentStatus } from './agents/agent-status.js';
import { instanceOf, nameOf } from './agents/occupants.js';
import { reportedTitle } from './metadata.js';
import { currentPaneIds, paneIds, withCurrentIds, workspaceStableId } from './ids.js';
import { layoutOrder } from './layout.js';
import type { PaneRecord, Registry, WorkspaceRecord } from './registry.js';

const AGGREGATE_PRIORITY = ['blocked', 'idle-unseen', 'working', 'idle-seen', 'unknown'] as const;

/** Built as one literal (object spread here cost ~13 µs a pane in `pane.list`). */
export function paneInfo(registry: Registry, pane: PaneRecord): PaneInfo {
  const ids = paneIds(pane);
  return withCurrentIds<PaneInfo>({
    pane_id: ids.pane_id,
    workspace_id: ids.workspace_id,
    stable_id: ids.stable_id,
    focused: registry.isFocused(pane),
    cwd: pane.cwd,
    label: pane.label,
    agent: pane.agent,
    agent_state: pane.agentState,
    agent_status: agentStatus(pane),
    agent_state_since: pane.agentStateSince,
    agent_source: pane.agentSource,
    agent_message: pane.agentMessage,
    agent_session: pane.agentSession,
    last_exit_code: pane.lastExitCode,
    restored: pane.restored || undefined,
    previous_agent_session: pane.previousAgentSession,
    revision: pane.revision,
    cols: pane.cols,
    rows: pane.rows,
    pid: pane.pid,
    title: pane.title || undefined,
    tokens: pane.reported?.tokens,
    display_agent: pane.reported?.displayAgent,
    state_labels: pane.reported?.stateLabels,
  }, currentPaneIds(pane));
}

/** A pane's agent as the agent API shows it; only for a pane that hosts one (occupants.ts `hostsAgent`). */
export function agentInfo(registry: Registry, pane: PaneRecord): AgentInfo {
  const ids = paneIds(pane);
  return withCurrentIds<AgentInfo>({
    agent_instance_id: instanceOf(pane) ?? '',
    name: nameOf(pane),
    agent: pane.agent ?? pane.agentStart?.kind ?? '',
    agent_status: agentStatus(pane),
    agent_state: pane.agentState,
    agent_state_since: pane.agentStateSince,
    agent_source: pane.agentSource,
    agent_message: pane.agentMessage,
    state_change_seq: pane.stateChangeSeq,
    launch_pending: pane.agent === undefined && pane.agentStart ? true : undefined,
    pane_id: ids.pane_id,
    workspace_id: ids.workspace_id,
    terminal_id: ids.stable_id,
    focused: registry.isFocused(pane),
    cwd: pane.cwd,
    label: pane.label,
    title: reportedTitle(pane),
    terminal_title: pane.title || undefined,
    revision: pane.revision,
  }, currentPaneIds(pane));
}

export function workspaceInfo(registry: Registry, workspace: WorkspaceRecord): WorkspaceInfo {
  return withCurrentIds<WorkspaceInfo>({
    workspace_id: String(workspace.position),
    number: workspace.position,
    label: workspaceLabel(registry, workspace),
    focused: registry.activeWorkspace === workspace,
    pane_count: workspace.panes.length,
    agent_state: aggregateState(workspace.panes),
    agent_status: aggregateStatus(workspace.panes),
    stable_id: workspaceStableId(workspace.uid),
    tokens: workspace.reportedTokens,
    worktree: workspace.worktree,
  }, { workspace_id: workspaceStableId(workspace.uid) });
}

/** The label a client set, else the root pane's directory name. */
function workspaceLabel(registry: Registry, workspace: WorkspaceRecord): string {
  if (workspace.customLabel !== undefined) return workspace.customLabel;
  const rootUid = layoutOrder(workspace.layout)[0];
  const root = rootUid === undefined ? undefined : registry.paneByUid(rootUid);
  return root?.cwdLabel ?? 'shell';
}

/** docs/protocol.md §10.4: the state of the workspace's highest-priority pane. */
export function aggregateState(panes: readonly PaneRecord[]): AgentState {
  let best: number = AGGREGATE_PRIORITY.length - 1;
  for (const pane of panes) {
    const rank =
      pane.agentState === 'idle'
        ? AGGREGATE_PRIORITY.indexOf(pane.seen ? 'idle-seen' : 'idle-unseen')
        : AGGREGATE_PRIORITY.indexOf(pane.agentState);
    best = Math.min(best, rank);
  }
  const top = AGGREGATE_PRIORITY[best];
  return top === 'idle-seen' || top === 'idle-unseen' ? 'idle' : (top ?? 'unknown');
}
