/**
 * The server's global truth, owned by the main thread: the ordered workspace
 * list, each workspace's panes (creation order and layout tree), focus, and a
 * cache of every pane's facts kept current by its shard. Pure state: no I/O.
 *
 * Everything is keyed by stable uids; compact ids ("2", "2-3") are positions
 * computed here at the edge and renumbered when something closes.
 */
import { ProtocolError } from '../protocol/errors.js';
import type { WorkspaceWorktree } from '../protocol/objects.js';
import type { ScrollPosition } from '../protocol/thread.js';
import { type Occupant, noOccupant } from './agents/occupant.js';
import { type PaneKey, paneStableId, parsePaneId, parseTabId, parseWorkspaceId } from './ids.js';
import type { AgentStatus, RightClickTarget, SplitDirection } from '../protocol/enums.js';
import { type LayoutNode, layoutOrder, leaf, removeLeaf, splitLeaf, swapLeaves } from './layout.js';

export interface PaneFacts {
  pid: number;
  cwd: string | undefined;
  /** The directory of the process in front, when that is not the pane's own process (`foreground_cwd`). */
  foregroundCwd?: string | undefined;
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
  /** The `p<N>` of its stable id: counts its workspace's panes, never reused there (a pane moved to another workspace takes that one's next). */
  stableNumber: number;
  /** Where it is now: `pane.move` takes it to another tab or workspace (docs/protocol.md §5.4). */
  workspace: WorkspaceRecord;
  /** The tab whose layout holds it (docs/protocol.md §5.3). */
  tab: TabRecord;
  /** The shard its terminal runs in: its first workspace's, for good (a moved pane keeps its process). */
  readonly shardId: number;
  /** Its terminal's identity (`terminal_id`): the stable id it started with, kept when it moves. */
  readonly terminalId: string;
  /** Compact pane number: 1-based position in the workspace's creation order. */
  number: number;
  revision: number;
  title: string | undefined;
  /** The pane's own label (`label` at creation, `pane.rename`); not the agent's name nor the workspace's label. */
  label: string | undefined;
  /** Its agent, if any: who, in which state, queued prompts (agents/occupant.ts). */
  readonly occupant: Occupant;
  /** OSC 133 D: the exit code of the shell's last command. */
  lastExitCode: number | undefined;
  /** When it last printed, and since when it has been printing (undefined: quiet); output-activity.ts. */
  readonly output: { lastAt: number | undefined; activeSince: number | undefined };
  /** docs/protocol.md §10.4: false once the pane turned idle while its workspace was not active. */
  seen: boolean;
  /** Brought back from a snapshot, and nothing new printed since. */
  restored: boolean;
  /** Its view's scroll position as its shard last told it (`pane.scroll`, docs/protocol.md §5.4). */
  scroll: ScrollPosition;
  /** What clients reported for display (metadata.ts); absent when nothing. */
  reported?: ReportedPaneMetadata | undefined;
  /** Where a person's right click goes (`pane.input.set`); absent: the viewer's own (herdr's default). Not kept across a restart, as herdr. */
  rightClick?: RightClickTarget | undefined;
}

/**
 * A tab (docs/protocol.md §5.3): a layout of panes within a workspace. A workspace has one
 * unless a client makes more; the focused pane is the active workspace's active tab's.
 */
export interface TabRecord {
  /** Counts a workspace's tabs, never reused there: the `t<N>` of `w1:t<N>`. */
  readonly uid: number;
  readonly workspace: WorkspaceRecord;
  /** Set by `tab.rename` or `label` at create. */
  customLabel: string | undefined;
  layout: LayoutNode;
  focusedPaneUid: number;
  /** Its focused pane fills it (`pane.zoom`); a split, a close or a move in or out of the tab ends it. */
  zoomed: boolean;
}

/** A tab as a snapshot keeps it. */
export interface SavedTabShape {
  uid: number;
  label: string | undefined;
  layout: LayoutNode;
  focusedPaneUid: number;
  zoomed?: boolean | undefined;
}

export interface WorkspaceRecord {
  readonly uid: number;
  /** Where its new panes start (panes moved in keep their own shard: PaneRecord.shardId). */
  readonly shardId: number;
  /** 1-based position in the workspace list. */
  position: number;
  /** Set by `workspace.rename` or `label` at create; kept forever once set. */
  customLabel: string | undefined;
  /** Creation order across its tabs: index + 1 is the compact pane number. */
  panes: PaneRecord[];
  /** In order (a tab's `number` is its index + 1); never empty. */
  tabs: TabRecord[];
  activeTab: TabRecord;
  nextTabUid: number;
  /** The stable number its next pane gets (`w1:p<N>`). */
  nextPaneNumber: number;
  /** Tokens clients reported for display (metadata.ts); absent when none. */
  reportedTokens?: Record<string, string> | undefined;
  /**
   * The git checkout it was made for (`worktree.create` / `worktree.open`), or that `worktree.open`
   * found it already open on (herdr's rule); kept with the session.
   */
  worktree: WorkspaceWorktree | undefined;
}

/** Where `pane.move` puts a pane (docs/protocol.md §5.4). */
export type MoveDestination =
  | { kind: 'tab'; tab: TabRecord; target: PaneRecord; direction: SplitDirection; ratio: number; focus: boolean }
  | { kind: 'new_tab'; workspace: WorkspaceRecord; tabUid: number; label: string | undefined; focus: boolean }
  | { kind: 'new_workspace'; workspaceUid: number; label: string | undefined; tabLabel: string | undefined; focus: boolean };

/** What a move made and ended. */
export interface MoveOutcome {
  /** The tab the pane is in now. */
  tab: TabRecord;
  sourceTabClosed: boolean;
  sourceWorkspaceClosed: boolean;
  createdWorkspace: WorkspaceRecord | undefined;
  createdTab: TabRecord | undefined;
}

/** A workspace's first tab: `w1:t1`. */
export const FIRST_TAB_UID = 1;

export class Registry {
  readonly workspaces: WorkspaceRecord[] = [];
  private readonly panesByUid = new Map<number, PaneRecord>();
  private readonly workspacesByUid = new Map<number, WorkspaceRecord>();
  private active: WorkspaceRecord | undefined;
  /** The stable ids panes had before `pane.move` took them to another workspace (herdr keeps them working too). */
  private readonly paneAliases = new Map<string, number>();
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

  /** A uid for a pane about to start (counts across the server; what threads and maps key on). */
  reservePaneUid(): number {
    return this.nextPaneUid++;
  }

  /**
   * The keys of a pane about to start in an open workspace: a uid, and the stable number that
   * counts the workspace's panes (a new workspace's panes are numbered from 1 by who makes it).
   */
  reservePane(workspace: WorkspaceRecord): PaneKey {
    return { uid: this.reservePaneUid(), stableNumber: workspace.nextPaneNumber++ };
  }

  /** The next uids to hand out (a snapshot keeps them, so stable ids are never reused across restarts). */
  get nextUids(): { workspace: number; pane: number } {
    return { workspace: this.nextWorkspaceUid, pane: this.nextPaneUid };
  }

  advanceUids(workspace: number, pane: number): void {
    this.nextWorkspaceUid = Math.max(this.nextWorkspaceUid, workspace);
    this.nextPaneUid = Math.max(this.nextPaneUid, pane);
  }

  /** A workspace from a snapshot, with its uids, label, tabs and panes (creation order) as they were. */
  restoreWorkspace(
    saved: {
      uid: number;
      shardId: number;
      label: string | undefined;
      tabs: SavedTabShape[];
      activeTabUid: number;
      worktree?: WorkspaceWorktree;
      nextPaneNumber?: number | undefined;
    },
    panes: Array<{ key: PaneKey; tabUid: number; facts: PaneFacts }>,
  ): WorkspaceRecord {
    const workspace = this.newWorkspace(saved.uid, saved.shardId, saved.label, saved.worktree, saved.tabs);
    workspace.activeTab = workspace.tabs.find((tab) => tab.uid === saved.activeTabUid) ?? workspace.activeTab;
    for (const pane of panes) {
      const tab = workspace.tabs.find((candidate) => candidate.uid === pane.tabUid) ?? workspace.activeTab;
      this.addPaneRecord(tab, pane.key, pane.facts);
    }
    workspace.nextPaneNumber = Math.max(saved.nextPaneNumber ?? 1, ...panes.map((pane) => pane.key.stableNumber + 1));
    this.advanceUids(saved.uid + 1, Math.max(...panes.map((pane) => pane.key.uid)) + 1);
    if (!this.active) this.focusWorkspace(workspace);
    return workspace;
  }

  paneByUid(uid: number): PaneRecord | undefined {
    return this.panesByUid.get(uid);
  }

  /** A string that changes exactly when the (active workspace, its active tab, focused pane) triple changes. */
  focusKey(): string {
    const tab = this.active?.activeTab;
    return tab ? `${tab.workspace.uid}:${tab.uid}:${tab.focusedPaneUid}` : '';
  }

  addWorkspace(
    uid: number,
    shardId: number,
    pane: PaneKey,
    facts: PaneFacts,
    options: { focus: boolean; label: string | undefined; worktree?: WorkspaceWorktree },
  ): WorkspaceRecord {
    const workspace = this.newWorkspace(uid, shardId, options.label, options.worktree, [
      { uid: FIRST_TAB_UID, label: undefined, layout: leaf(pane.uid), focusedPaneUid: pane.uid },
    ]);
    this.addPaneRecord(workspace.activeTab, pane, facts);
    workspace.nextPaneNumber = Math.max(workspace.nextPaneNumber, pane.stableNumber + 1);
    if (options.focus || !this.active) this.focusWorkspace(workspace);
    return workspace;
  }

  /** A tab uid for a tab about to be made in `workspace` (its first pane's environment names it). */
  reserveTabUid(workspace: WorkspaceRecord): number {
    return workspace.nextTabUid++;
  }

  /** A new last tab holding one pane; active (and its workspace too) if `focus`. */
  addTab(workspace: WorkspaceRecord, tabUid: number, pane: PaneKey, facts: PaneFacts, options: { focus: boolean; label: string | undefined }): TabRecord {
    const tab: TabRecord = { uid: tabUid, workspace, customLabel: options.label, layout: leaf(pane.uid), focusedPaneUid: pane.uid, zoomed: false };
    workspace.tabs.push(tab);
    this.addPaneRecord(tab, pane, facts);
    if (options.focus) this.focusTab(tab);
    return tab;
  }

  /**
   * A new last tab holding a whole layout whose panes all started (`layout.apply` into a
   * workspace, docs/protocol.md §5.2); its first pane in layout order has its focus.
   */
  addLayoutTab(workspace: WorkspaceRecord, tabUid: number, label: string | undefined, layout: LayoutNode, panes: ReadonlyArray<{ key: PaneKey; facts: PaneFacts }>): TabRecord {
    const first = layoutOrder(layout)[0] ?? 0;
    const tab: TabRecord = { uid: tabUid, workspace, customLabel: label, layout, focusedPaneUid: first, zoomed: false };
    workspace.tabs.push(tab);
    for (const { key, facts } of panes) this.addPaneRecord(tab, key, facts);
    return tab;
  }

  /** Splits `target`'s leaf; the target is focused first, the new pane too if `focus`. */
  addSplitPane(target: PaneRecord, key: PaneKey, direction: SplitDirection, facts: PaneFacts, focus: boolean, ratio = 0.5): PaneRecord {
    const tab = target.tab;
    tab.focusedPaneUid = target.uid;
    tab.layout = splitLeaf(tab.layout, target.uid, key.uid, direction, ratio);
    tab.zoomed = false;
    const pane = this.addPaneRecord(tab, key, facts);
    if (focus) tab.focusedPaneUid = key.uid;
    return pane;
  }

  /** Removes a pane, and its tab if it was the tab's last, and its workspace if that was the last tab. */
  removePane(pane: PaneRecord): { tabClosed: boolean; workspaceClosed: boolean } {
    const { tab, workspace } = pane;
    if (layoutOrder(tab.layout).length === 1) {
      if (workspace.tabs.length === 1) {
        this.removeWorkspace(workspace);
        return { tabClosed: true, workspaceClosed: true };
      }
      this.removeTab(tab);
      return { tabClosed: true, workspaceClosed: false };
    }
    const order = layoutOrder(tab.layout);
    const at = order.indexOf(pane.uid);
    if (tab.focusedPaneUid === pane.uid) tab.focusedPaneUid = order[at + 1] ?? order[at - 1] ?? tab.focusedPaneUid;
    tab.layout = removeLeaf(tab.layout, pane.uid) ?? tab.layout;
    tab.zoomed = false;
    this.dropPaneRecords(workspace, [pane]);
    return { tabClosed: false, workspaceClosed: false };
  }

  /**
   * Removes a tab of a workspace that has others, with its panes; the next tab (else the
   * previous) becomes active if it was.
   */
  removeTab(tab: TabRecord): void {
    const { workspace } = tab;
    const index = workspace.tabs.indexOf(tab);
    workspace.tabs.splice(index, 1);
    if (workspace.activeTab === tab) {
      workspace.activeTab = workspace.tabs[index] ?? workspace.tabs[index - 1] ?? workspace.activeTab;
    }
    this.dropPaneRecords(
      workspace,
      workspace.panes.filter((pane) => pane.tab === tab),
    );
  }

  removeWorkspace(workspace: WorkspaceRecord): void {
    const index = workspace.position - 1;
    this.workspaces.splice(index, 1);
    this.workspacesByUid.delete(workspace.uid);
    for (const pane of workspace.panes) this.panesByUid.delete(pane.uid);
    this.forgetAliases(new Set(workspace.panes));
    this.workspaces.forEach((w, i) => (w.position = i + 1));
    if (this.active === workspace) {
      const next = this.workspaces[index] ?? this.workspaces[this.workspaces.length - 1];
      this.active = undefined;
      if (next) this.focusWorkspace(next);
    }
  }

  /**
   * herdr's `workspace.move`: the workspace goes to `insertIndex` of the list as it is now
   * (the one there and those after it move down; one past the end: last). Compact ids
   * follow the new positions; false when that is where it already is.
   */
  moveWorkspace(workspace: WorkspaceRecord, insertIndex: number): boolean {
    const from = workspace.position - 1;
    const to = from < insertIndex ? insertIndex - 1 : insertIndex;
    if (to === from || to < 0 || to >= this.workspaces.length) return false;
    this.workspaces.splice(from, 1);
    this.workspaces.splice(to, 0, workspace);
    this.workspaces.forEach((w, i) => (w.position = i + 1));
    return true;
  }

  /**
   * herdr's `workspace.move_block`: the workspaces of `block` go, in that order, right before
   * `before` (absent: to the end); the others keep their order. False when nothing moves.
   */
  moveWorkspaceBlock(block: readonly WorkspaceRecord[], before: WorkspaceRecord | undefined): boolean {
    const moving = new Set(block);
    const rest = this.workspaces.filter((workspace) => !moving.has(workspace));
    const at = before ? rest.indexOf(before) : rest.length;
    const order = [...rest.slice(0, at), ...block, ...rest.slice(at)];
    if (order.every((workspace, index) => this.workspaces[index] === workspace)) return false;
    this.workspaces.splice(0, this.workspaces.length, ...order);
    this.workspaces.forEach((w, i) => (w.position = i + 1));
    return true;
  }

  /** herdr's `tab.move`: as `moveWorkspace`, among the tab's workspace's tabs; the active tab stays active. */
  moveTab(tab: TabRecord, insertIndex: number): boolean {
    const { tabs } = tab.workspace;
    const from = tabs.indexOf(tab);
    const to = Math.min(from < insertIndex ? insertIndex - 1 : insertIndex, tabs.length - 1);
    if (to === from || to < 0) return false;
    tabs.splice(from, 1);
    tabs.splice(to, 0, tab);
    return true;
  }

  /**
   * Takes a pane out of its tab and puts it where `to` says, its process untouched
   * (`pane.move`, docs/protocol.md §5.4). A tab left empty closes, and so does a workspace
   * left without panes when the pane went to another one. In another workspace the pane
   * takes that workspace's next stable number (and compact number); its old stable id keeps
   * naming it. Focus follows the pane when `to.focus`, or when nothing else holds it.
   */
  movePane(pane: PaneRecord, to: MoveDestination): MoveOutcome {
    const sourceTab = pane.tab;
    const source = pane.workspace;
    const sourceTabClosed = layoutOrder(sourceTab.layout).length === 1;
    if (sourceTabClosed) {
      const index = source.tabs.indexOf(sourceTab);
      source.tabs.splice(index, 1);
      if (source.activeTab === sourceTab) source.activeTab = source.tabs[index] ?? source.tabs[index - 1] ?? source.activeTab;
    } else {
      const order = layoutOrder(sourceTab.layout);
      const at = order.indexOf(pane.uid);
      if (sourceTab.focusedPaneUid === pane.uid) sourceTab.focusedPaneUid = order[at + 1] ?? order[at - 1] ?? sourceTab.focusedPaneUid;
      sourceTab.layout = removeLeaf(sourceTab.layout, pane.uid) ?? sourceTab.layout;
      sourceTab.zoomed = false;
    }

    let tab: TabRecord;
    let createdWorkspace: WorkspaceRecord | undefined;
    let createdTab: TabRecord | undefined;
    if (to.kind === 'tab') {
      tab = to.tab;
      tab.layout = splitLeaf(tab.layout, to.target.uid, pane.uid, to.direction, to.ratio);
      tab.zoomed = false;
      if (to.focus) tab.focusedPaneUid = pane.uid;
    } else if (to.kind === 'new_tab') {
      tab = { uid: to.tabUid, workspace: to.workspace, customLabel: to.label, layout: leaf(pane.uid), focusedPaneUid: pane.uid, zoomed: false };
      to.workspace.tabs.push(tab);
      createdTab = tab;
    } else {
      createdWorkspace = this.newWorkspace(to.workspaceUid, pane.shardId, to.label, undefined, [
        { uid: FIRST_TAB_UID, label: to.tabLabel, layout: leaf(pane.uid), focusedPaneUid: pane.uid },
      ]);
      tab = createdWorkspace.activeTab;
      createdTab = tab;
    }
    const destination = tab.workspace;
    // A workspace whose only tab left gets the new one as its active tab.
    if (!destination.tabs.includes(destination.activeTab)) destination.activeTab = tab;

    let sourceWorkspaceClosed = false;
    if (destination !== source) {
      this.paneAliases.set(paneStableId(source.uid, pane.stableNumber), pane.uid);
      source.panes = source.panes.filter((candidate) => candidate !== pane);
      source.panes.forEach((p, i) => (p.number = i + 1));
      pane.workspace = destination;
      pane.stableNumber = destination.nextPaneNumber++;
      destination.panes.push(pane);
      pane.number = destination.panes.length;
      if (source.panes.length === 0) {
        this.removeWorkspace(source);
        sourceWorkspaceClosed = true;
      }
    }
    pane.tab = tab;
    if (to.focus || !this.active) this.focusPane(pane);
    return { tab, sourceTabClosed, sourceWorkspaceClosed, createdWorkspace, createdTab };
  }

  /** Exchanges two panes' places in their tab (`pane.swap`); false when they are one pane or in different tabs. */
  swapPanes(a: PaneRecord, b: PaneRecord): boolean {
    if (a === b || a.tab !== b.tab) return false;
    const before = a.tab.layout;
    a.tab.layout = swapLeaves(before, a.uid, b.uid);
    return a.tab.layout !== before;
  }

  focusWorkspace(workspace: WorkspaceRecord): void {
    this.active = workspace;
    for (const pane of workspace.panes) pane.seen = true;
  }

  /** Makes the tab its workspace's active one and the workspace active. */
  focusTab(tab: TabRecord): void {
    tab.workspace.activeTab = tab;
    this.focusWorkspace(tab.workspace);
  }

  /** Makes the pane its tab's focused one, the tab active, the workspace active. */
  focusPane(pane: PaneRecord): void {
    pane.tab.focusedPaneUid = pane.uid;
    this.focusTab(pane.tab);
  }

  /** The pane that has the focus within a workspace: its active tab's focused pane. */
  focusedPaneOf(workspace: WorkspaceRecord): PaneRecord | undefined {
    return this.panesByUid.get(workspace.activeTab.focusedPaneUid);
  }

  /** The server's focused pane, if any workspace is open. */
  get focusedPane(): PaneRecord | undefined {
    return this.active && this.focusedPaneOf(this.active);
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
      found = this.workspacesByUid.get(parsed.workspaceUid)?.panes.find((pane) => pane.stableNumber === parsed.stableNumber);
      const alias = found ? undefined : this.paneAliases.get(id);
      if (alias !== undefined) found = this.panesByUid.get(alias);
    }
    if (!found) throw new ProtocolError('pane_not_found', `pane ${id} not found`);
    return found;
  }

  /**
   * The pane named; else (herdr's rule for an omitted pane) the focused pane of
   * `workspace` when given, else the server's: `pane_not_found` when none is open.
   */
  resolvePaneOrFocused(id: string | undefined, workspace?: WorkspaceRecord): PaneRecord {
    if (id !== undefined) return this.resolvePane(id);
    const focused = workspace ? this.focusedPaneOf(workspace) : this.focusedPane;
    if (!focused) throw new ProtocolError('pane_not_found', 'no pane is focused (no workspace is open): name the pane');
    return focused;
  }

  /** A tab by its id (`w1:t2`). */
  resolveTab(id: string): TabRecord {
    const parsed = parseTabId(id);
    const found = parsed && this.workspacesByUid.get(parsed.workspaceUid)?.tabs.find((tab) => tab.uid === parsed.tabUid);
    if (!found) throw new ProtocolError('tab_not_found', `tab ${id} not found`);
    return found;
  }

  /** Panes of a workspace in layout order, tab by tab. */
  panesInLayoutOrder(workspace: WorkspaceRecord): PaneRecord[] {
    return workspace.tabs.flatMap((tab) => this.tabPanes(tab));
  }

  /** Panes of a tab in layout order. */
  tabPanes(tab: TabRecord): PaneRecord[] {
    return layoutOrder(tab.layout).flatMap((uid) => this.panesByUid.get(uid) ?? []);
  }

  /** The tab's first pane in layout order (its label follows that pane's directory). */
  rootPane(tab: TabRecord): PaneRecord | undefined {
    const uid = layoutOrder(tab.layout)[0];
    return uid === undefined ? undefined : this.panesByUid.get(uid);
  }

  isFocused(pane: PaneRecord): boolean {
    return this.active === pane.workspace && pane.workspace.activeTab === pane.tab && pane.tab.focusedPaneUid === pane.uid;
  }

  /** The tab is its workspace's active one, and that workspace is the active one. */
  isFocusedTab(tab: TabRecord): boolean {
    return this.active === tab.workspace && tab.workspace.activeTab === tab;
  }

  private newWorkspace(
    uid: number,
    shardId: number,
    label: string | undefined,
    worktree: WorkspaceWorktree | undefined,
    tabs: readonly SavedTabShape[],
  ): WorkspaceRecord {
    // The record and its tabs point at each other: the tabs are filled in right after.
    const workspace = {
      uid,
      shardId,
      position: this.workspaces.length + 1,
      customLabel: label,
      panes: [],
      tabs: [],
      nextTabUid: Math.max(FIRST_TAB_UID, ...tabs.map((tab) => tab.uid + 1)),
      nextPaneNumber: 1,
      worktree,
    } as unknown as WorkspaceRecord;
    workspace.tabs = tabs.map((saved) => ({
      uid: saved.uid,
      workspace,
      customLabel: saved.label,
      layout: saved.layout,
      focusedPaneUid: saved.focusedPaneUid,
      zoomed: (saved.zoomed ?? false) && saved.layout.kind === 'split',
    }));
    workspace.activeTab = workspace.tabs[0] as TabRecord;
    this.workspaces.push(workspace);
    this.workspacesByUid.set(uid, workspace);
    return workspace;
  }

  /** Forgets panes that left a workspace's tabs, renumbering the rest (compact numbers). */
  private dropPaneRecords(workspace: WorkspaceRecord, gone: readonly PaneRecord[]): void {
    const goneSet = new Set(gone);
    workspace.panes = workspace.panes.filter((pane) => !goneSet.has(pane));
    workspace.panes.forEach((p, i) => (p.number = i + 1));
    for (const pane of gone) this.panesByUid.delete(pane.uid);
    this.forgetAliases(goneSet);
  }

  private forgetAliases(gone: ReadonlySet<PaneRecord>): void {
    if (this.paneAliases.size === 0) return;
    const uids = new Set([...gone].map((pane) => pane.uid));
    for (const [id, uid] of this.paneAliases) if (uids.has(uid)) this.paneAliases.delete(id);
  }

  private addPaneRecord(tab: TabRecord, { uid, stableNumber }: PaneKey, facts: PaneFacts): PaneRecord {
    const workspace = tab.workspace;
    const pane: PaneRecord = {
      ...facts,
      uid,
      stableNumber,
      workspace,
      tab,
      shardId: workspace.shardId,
      terminalId: paneStableId(workspace.uid, stableNumber),
      number: workspace.panes.length + 1,
      revision: 0,
      title: undefined,
      label: undefined,
      occupant: noOccupant(),
      lastExitCode: undefined,
      output: { lastAt: undefined, activeSince: undefined },
      seen: true,
      restored: false,
      scroll: { offsetFromBottom: 0, maxOffsetFromBottom: 0, viewportRows: facts.rows },
    };
    workspace.panes.push(pane);
    this.panesByUid.set(uid, pane);
    return pane;
  }
}
