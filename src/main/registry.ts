/**
 * The server's global truth, owned by the main thread: the ordered workspace
 * list, each workspace's panes (creation order and layout tree), focus, and a
 * cache of every pane's facts kept current by its shard. Pure state: no I/O.
 *
 * Everything is keyed by stable uids; compact ids ("2", "2-3") are positions
 * computed here at the edge and renumbered when something closes.
 */
import { ProtocolError } from '../protocol/errors.js';
import type { AgentSession, AgentSource, AgentState, PreviousAgentSession, WorkspaceWorktree } from '../protocol/objects.js';
import { parsePaneId, parseWorkspaceId } from './ids.js';
import type { AgentStatus, SplitDirection } from '../protocol/enums.js';
import { type LayoutNode, layoutOrder, leaf, removeLeaf, splitLeaf } from './layout.js';

export interface PaneFacts {
  pid: number;
  cwd: string | undefined;
  cwdLabel: string | undefined;
  cols: number;
  rows: number;
  /** What the pane was started with beyond the defaults, to start it again after a restart. */
  launch: PaneLaunch;
}

export interface PaneLaunch {
  /** The argv it runs (undefined: the server's shell). */
  command: string[] | undefined;
  /** The client's environment additions. */
  env: Record<string, string> | undefined;
}

/** What a pane shows of clients' metadata reports (metadata.ts; the title is for agent objects, not pane_info). */
export interface ReportedPaneMetadata {
  tokens: Record<string, string> | undefined;
  title: string | undefined;
  displayAgent: string | undefined;
  stateLabels: Partial<Record<AgentStatus, string>> | undefined;
}

export interface PaneRecord extends PaneFacts {
  readonly uid: number;
  readonly workspace: WorkspaceRecord;
  /** Compact pane number: 1-based position in the workspace's creation order. */
  number: number;
  revision: number;
  title: string | undefined;
  /** The pane's own label (`label` at creation, `pane.rename`); not the agent's name nor the workspace's label. */
  label: string | undefined;
  /** A detected agent's name, or the label its hook reported. */
  agent: string | undefined;
  agentState: AgentState;
  /** When agentState took its value (ms since the epoch). */
  agentStateSince: number;
  agentSource: AgentSource | undefined;
  agentMessage: string | undefined;
  agentSession: AgentSession | undefined;
  /** This occupant's id in the agent API (docs/protocol.md §13); a new agent in the pane gets a new one. */
  agentInstanceId: string | undefined;
  /** The name agent.start or agent.rename gave the occupant; it goes with it. */
  agentName: string | undefined;
  /** How many times agentState changed: a prompt's wait needs a change after its write. */
  stateChangeSeq: number;
  /** Turned idle from working or blocked and not looked at since (read, attach, focus): agent_status `done`. */
  unread: boolean;
  /** agent.start launched an agent here that has not shown up yet: its coming id, name and kind. */
  agentStart: AgentStart | undefined;
  /** OSC 133 D: the exit code of the shell's last command. */
  lastExitCode: number | undefined;
  /** docs/protocol.md §10.4: false once the pane turned idle while its workspace was not active. */
  seen: boolean;
  /** Brought back from a snapshot, and nothing new printed since. */
  restored: boolean;
  /** The agent session of a restored pane that was not resumed into it. */
  previousAgentSession: PreviousAgentSession | undefined;
  /** What clients reported for display (metadata.ts); absent when nothing. */
  reported?: ReportedPaneMetadata | undefined;
}

export interface AgentStart {
  instanceId: string;
  name: string | undefined;
  kind: string;
}

export interface WorkspaceRecord {
  readonly uid: number;
  readonly shardId: number;
  /** 1-based position in the workspace list. */
  position: number;
  /** Set by `workspace.rename` or `label` at create; kept forever once set. */
  customLabel: string | undefined;
  /** Creation order: index + 1 is the compact pane number. */
  panes: PaneRecord[];
  layout: LayoutNode;
  focusedPaneUid: number;
  /** Tokens clients reported for display (metadata.ts); absent when none. */
  reportedTokens?: Record<string, string> | undefined;
  /** The git checkout it was made for (`worktree.create` / `worktree.open`); kept with the session. */
  readonly worktree: WorkspaceWorktree | undefined;
}

export class Registry {
  readonly workspaces: WorkspaceRecord[] = [];
  private readonly panesByUid = new Map<number, PaneRecord>();
  private readonly workspacesByUid = new Map<number, WorkspaceRecord>();
  private active: WorkspaceRecord | undefined;
  private nextWorkspaceUid = 1;
  private nextPaneUid = 1;

  get paneCount(): number {
    return this.panesByUid.size;
  }

  get activeWorkspace(): WorkspaceRecord | undefined {
    return this.active;
  }

  reserveWorkspaceUid(): number {
    return this.nextWorkspaceUid++;
  }

  reservePaneUid(): number {
    return this.nextPaneUid++;
  }

  /** The next uids to hand out (a snapshot keeps them, so stable ids are never reused across restarts). */
  get nextUids(): { workspace: number; pane: number } {
    return { workspace: this.nextWorkspaceUid, pane: this.nextPaneUid };
  }

  advanceUids(workspace: number, pane: number): void {
    this.nextWorkspaceUid = Math.max(this.nextWorkspaceUid, workspace);
    this.nextPaneUid = Math.max(this.nextPaneUid, pane);
  }

  /** A workspace from a snapshot, with its uids, label, layout and panes (creation order) as they were. */
  restoreWorkspace(
    saved: { uid: number; shardId: number; label: string | undefined; layout: LayoutNode; focusedPaneUid: number; worktree?: WorkspaceWorktree },
    panes: Array<{ uid: number; facts: PaneFacts }>,
  ): WorkspaceRecord {
    const workspace: WorkspaceRecord = {
      uid: saved.uid,
      shardId: saved.shardId,
      position: this.workspaces.length + 1,
      customLabel: saved.label,
      panes: [],
      layout: saved.layout,
      focusedPaneUid: saved.focusedPaneUid,
      worktree: saved.worktree,
    };
    this.workspaces.push(workspace);
    this.workspacesByUid.set(saved.uid, workspace);
    for (const pane of panes) this.addPaneRecord(workspace, pane.uid, pane.facts);
    this.advanceUids(saved.uid + 1, Math.max(...panes.map((pane) => pane.uid)) + 1);
    if (!this.active) this.focusWorkspace(workspace);
    return workspace;
  }

  paneByUid(uid: number): PaneRecord | undefined {
    return this.panesByUid.get(uid);
  }

  /** A string that changes exactly when the (active workspace, focused pane) pair changes. */
  focusKey(): string {
    return this.active ? `${this.active.uid}:${this.active.focusedPaneUid}` : '';
  }

  addWorkspace(
    uid: number,
    shardId: number,
    paneUid: number,
    facts: PaneFacts,
    options: { focus: boolean; label: string | undefined; worktree?: WorkspaceWorktree },
  ): WorkspaceRecord {
    const workspace: WorkspaceRecord = {
      uid,
      shardId,
      position: this.workspaces.length + 1,
      customLabel: options.label,
      panes: [],
      layout: leaf(paneUid),
      focusedPaneUid: paneUid,
      worktree: options.worktree,
    };
    this.workspaces.push(workspace);
    this.workspacesByUid.set(uid, workspace);
    this.addPaneRecord(workspace, paneUid, facts);
    if (options.focus || !this.active) this.focusWorkspace(workspace);
    return workspace;
  }

  /** Splits `target`'s leaf; the target is focused first, the new pane too if `focus`. */
  addSplitPane(target: PaneRecord, paneUid: number, direction: SplitDirection, facts: PaneFacts, focus: boolean): PaneRecord {
    const workspace = target.workspace;
    workspace.focusedPaneUid = target.uid;
    workspace.layout = splitLeaf(workspace.layout, target.uid, paneUid, direction);
    const pane = this.addPaneRecord(workspace, paneUid, facts);
    if (focus) workspace.focusedPaneUid = paneUid;
    return pane;
  }

  /** Removes a pane (and its workspace if it was the last); answers whether the workspace went too. */
  removePane(pane: PaneRecord): { workspaceClosed: boolean } {
    const workspace = pane.workspace;
    if (workspace.panes.length === 1) {
      this.removeWorkspace(workspace);
      return { workspaceClosed: true };
    }
    const order = layoutOrder(workspace.layout);
    const at = order.indexOf(pane.uid);
    if (workspace.focusedPaneUid === pane.uid) {
      workspace.focusedPaneUid = order[at + 1] ?? order[at - 1] ?? workspace.focusedPaneUid;
    }
    workspace.layout = removeLeaf(workspace.layout, pane.uid) ?? workspace.layout;
    workspace.panes.splice(pane.number - 1, 1);
    workspace.panes.forEach((p, i) => (p.number = i + 1));
    this.panesByUid.delete(pane.uid);
    return { workspaceClosed: false };
  }

  removeWorkspace(workspace: WorkspaceRecord): void {
    const index = workspace.position - 1;
    this.workspaces.splice(index, 1);
    this.workspacesByUid.delete(workspace.uid);
    for (const pane of workspace.panes) this.panesByUid.delete(pane.uid);
    this.workspaces.forEach((w, i) => (w.position = i + 1));
    if (this.active === workspace) {
      const next = this.workspaces[index] ?? this.workspaces[this.workspaces.length - 1];
      this.active = undefined;
      if (next) this.focusWorkspace(next);
    }
  }

  focusWorkspace(workspace: WorkspaceRecord): void {
    this.active = workspace;
    for (const pane of workspace.panes) pane.seen = true;
  }

  /** Makes the pane's workspace active and the pane its focused one. */
  focusPane(pane: PaneRecord): void {
    pane.workspace.focusedPaneUid = pane.uid;
    this.focusWorkspace(pane.workspace);
  }

  rename(workspace: WorkspaceRecord, label: string): void {
    workspace.customLabel = label;
  }

  resolveWorkspace(id: string): WorkspaceRecord {
    const parsed = parseWorkspaceId(id);
    const found = parsed?.kind === 'position' ? this.workspaces[parsed.position - 1] : parsed && this.workspacesByUid.get(parsed.uid);
    if (!found) throw new ProtocolError('workspace_not_found', `workspace ${id} not found`);
    return found;
  }

  resolvePane(id: string): PaneRecord {
    const parsed = parsePaneId(id);
    let found: PaneRecord | undefined;
    if (parsed?.kind === 'position') found = this.workspaces[parsed.workspacePosition - 1]?.panes[parsed.paneNumber - 1];
    else if (parsed) {
      const pane = this.panesByUid.get(parsed.paneUid);
      if (pane?.workspace.uid === parsed.workspaceUid) found = pane;
    }
    if (!found) throw new ProtocolError('pane_not_found', `pane ${id} not found`);
    return found;
  }

  /** Panes of a workspace in layout order. */
  panesInLayoutOrder(workspace: WorkspaceRecord): PaneRecord[] {
    return layoutOrder(workspace.layout).flatMap((uid) => this.panesByUid.get(uid) ?? []);
  }

  isFocused(pane: PaneRecord): boolean {
    return this.active === pane.workspace && pane.workspace.focusedPaneUid === pane.uid;
  }

  private addPaneRecord(workspace: WorkspaceRecord, uid: number, facts: PaneFacts): PaneRecord {
    const pane: PaneRecord = {
      ...facts,
      uid,
      workspace,
      number: workspace.panes.length + 1,
      revision: 0,
      title: undefined,
      label: undefined,
      agent: undefined,
      agentState: 'unknown',
      agentStateSince: Date.now(),
      agentSource: undefined,
      agentMessage: undefined,
      agentSession: undefined,
      agentInstanceId: undefined,
      agentName: undefined,
      stateChangeSeq: 0,
      unread: false,
      agentStart: undefined,
      lastExitCode: undefined,
      seen: true,
      restored: false,
      previousAgentSession: undefined,
    };
    workspace.panes.push(pane);
    this.panesByUid.set(uid, pane);
    return pane;
  }
}
