/**
 * `layout.apply` (docs/protocol.md §5.2): a new workspace, or a new tab of an existing one
 * (which may replace a tab), built from a split tree in one request, all or nothing. Every
 * leaf is checked before anything starts; then every pane is started; only when all
 * started is the workspace or tab added to the registry (the main thread adds it in one
 * go, so no other request ever sees it half-built). A leaf that fails to start ends the
 * panes already started, and nothing is added, closed, or told.
 */
import { resolve } from 'node:path';
import { ProtocolError } from '../../protocol/errors.js';
import type { LayoutTreeNode } from '../../protocol/layout-tree.js';
import type { EventBatch } from '../event-hub.js';
import { addFocusEvents } from '../focus-events.js';
import type { HeldReports } from '../held-reports.js';
import { addLayoutUpdated } from '../layout-events.js';
import { type PaneKey, errorNaming, paneMeta, tabStableId, workspaceMeta } from '../ids.js';
import { type LayoutNode, leaf } from '../layout.js';
import type { PaneRemoval } from '../pane-removal.js';
import type { PaneShards } from '../pane-shards.js';
import { FIRST_TAB_UID, type PaneFacts, type Registry, type TabRecord, type WorkspaceRecord } from '../registry.js';
import type { ShardHandle } from '../shard-handle.js';
import { paneInfo, tabInfo } from '../wire-views.js';
import type { PaneSpawner, SpawnRequest } from './pane-spawner.js';
import { addCreatedEvents } from './workspaces.js';

export interface LayoutApplyRequest {
  root: LayoutTreeNode;
  /** The new workspace's label, or the new tab's. */
  label: string | undefined;
  focus: boolean;
}

/** Where a tab is built: in this workspace, in place of `replace` when given. */
export interface LayoutTabTarget {
  workspace: WorkspaceRecord;
  replace: TabRecord | undefined;
}

/** One leaf of the tree, ready to start: where it is in the tree, its uid, how it starts. */
interface PlannedPane {
  /** `root.first.second`: how an error names the leaf. */
  path: string;
  key: PaneKey;
  cwd: string;
  label: string | undefined;
  request: SpawnRequest;
}

export class LayoutOperations {
  constructor(
    private readonly registry: Registry,
    private readonly shards: PaneShards,
    private readonly spawner: PaneSpawner,
    private readonly held: HeldReports,
    private readonly removal: PaneRemoval,
  ) {}

  /**
   * Builds the workspace; its events go to `batch`. `afterResponse` runs an
   * action after the response and its events are out: the new panes' own
   * reports (an early exit, …) are applied then, so they come after
   * `pane_created`.
   */
  async apply(request: LayoutApplyRequest, batch: EventBatch, afterResponse: (action: () => void) => void): Promise<WorkspaceRecord> {
    this.spawner.refuseWhileStopping();
    // A new workspace numbers its panes from 1, in layout order.
    let next = 1;
    const planned = this.checkedPlan(request.root, process.cwd(), () => ({ uid: this.registry.reservePaneUid(), stableNumber: next++ }));
    const shard = this.shards.pick();
    if (!shard) throw new ProtocolError('layout_apply_failed', `no shard is running: ${this.shards.describeBackoff()}`);
    const workspaceUid = this.registry.reserveWorkspaceUid();
    const facts = await this.startAll(planned.panes, shard, workspaceUid, FIRST_TAB_UID, afterResponse, 'workspace_create_failed');
    return this.add(request, workspaceUid, shard.id, planned.layout, planned.panes, facts, batch);
  }

  /**
   * herdr's form (docs/protocol.md §5.2): a new last tab of `target.workspace` built from
   * the tree; with `target.replace`, that tab closes once the new one stands, the new one
   * takes its label (unless given one) and, if it was its workspace's active tab, its place
   * as the active one. Leaves without `cwd` start where the replaced tab's focused pane is,
   * else the workspace's focused pane.
   */
  async applyToTab(request: LayoutApplyRequest, target: LayoutTabTarget, batch: EventBatch, afterResponse: (action: () => void) => void): Promise<TabRecord> {
    this.spawner.refuseWhileStopping();
    const { workspace, replace } = target;
    const near = (replace && this.registry.paneByUid(replace.focusedPaneUid)) ?? this.registry.focusedPaneOf(workspace);
    const planned = this.checkedPlan(request.root, near?.cwd ?? process.cwd(), () => this.registry.reservePane(workspace));
    const shard = this.shards.of(workspace);
    const tabUid = this.registry.reserveTabUid(workspace);
    const facts = await this.startAll(planned.panes, shard, workspace.uid, tabUid, afterResponse, 'tab_create_failed');
    const gone = !this.registry.workspaces.includes(workspace) || (replace !== undefined && !workspace.tabs.includes(replace));
    if (gone) {
      for (const pane of planned.panes) void shard.request('close', { paneUid: pane.key.uid }).catch(() => undefined);
      this.held.drop(planned.panes.map((pane) => pane.key.uid));
      throw replace && this.registry.workspaces.includes(workspace)
        ? new ProtocolError('tab_not_found', `tab ${tabStableId(workspace.uid, replace.uid)} closed while its replacement started; the new panes were ended`)
        : errorNaming('workspace_not_found', (name) => `workspace ${name(workspace)} closed while the layout started; the new panes were ended`);
    }

    const focusBefore = this.registry.focusKey();
    const label = request.label ?? replace?.customLabel;
    const tab = this.registry.addLayoutTab(workspace, tabUid, label, planned.layout, planned.panes.map((pane, index) => ({ key: pane.key, facts: facts[index] as PaneFacts })));
    for (const pane of planned.panes) {
      const record = this.registry.paneByUid(pane.key.uid);
      if (record) record.label = pane.label;
    }
    const wasActive = replace !== undefined && workspace.activeTab === replace;
    if (request.focus || (wasActive && this.registry.activeWorkspace === workspace)) this.registry.focusTab(tab);
    else if (wasActive) workspace.activeTab = tab;
    // The new tab holds the focus by now, so closing the old one moves none.
    if (replace) this.removal.closeTab(replace, batch);
    batch.add('tab_created', { tab: tabInfo(this.registry, tab) }, workspaceMeta(workspace));
    for (const pane of this.registry.tabPanes(tab)) batch.add('pane_created', { pane: paneInfo(this.registry, pane) }, paneMeta(pane));
    addLayoutUpdated(this.registry, tab, batch);
    addFocusEvents(this.registry, focusBefore, batch);
    return tab;
  }

  /** The planned leaves, each checked as the spawner would (its directory, its program) before any starts. */
  private checkedPlan(root: LayoutTreeNode, baseCwd: string, keyOf: () => PaneKey): { layout: LayoutNode; panes: PlannedPane[] } {
    const panes: PlannedPane[] = [];
    const { layout } = this.plan(root, 'root', baseCwd, keyOf, panes);
    for (const pane of panes) {
      const problem = this.spawner.startProblem(pane.request, pane.cwd);
      if (problem) throw new ProtocolError('layout_apply_failed', `${pane.path} cannot start: ${problem}; nothing was started`);
    }
    return { layout, panes };
  }

  /** Starts every planned pane on `shard`; one that fails ends the others and is `layout_apply_failed` naming it. */
  private async startAll(
    planned: PlannedPane[],
    shard: ShardHandle,
    workspaceUid: number,
    tabUid: number,
    afterResponse: (action: () => void) => void,
    failure: 'workspace_create_failed' | 'tab_create_failed',
  ): Promise<PaneFacts[]> {
    const uids = planned.map((pane) => pane.key.uid);
    this.held.hold(uids);
    // Whatever happens below, the hold ends once this request is answered.
    afterResponse(() => this.held.release(uids));

    // One shard takes them in turn; sent together, none waits for the one before to be answered.
    const started = await Promise.allSettled(
      planned.map((pane) => this.spawner.spawn(pane.request, { shard, workspaceUid, tabUid, pane: pane.key, cwd: pane.cwd }, failure)),
    );
    const facts: PaneFacts[] = [];
    for (const result of started) if (result.status === 'fulfilled') facts.push(result.value);
    const failedAt = started.findIndex((result) => result.status === 'rejected');
    const failed = started[failedAt];
    if (failed?.status === 'rejected') {
      started.forEach((result, index) => {
        if (result.status === 'fulfilled') void shard.request('close', { paneUid: uids[index] ?? 0 }).catch(() => undefined);
      });
      this.held.drop(uids);
      const reason: unknown = failed.reason;
      if (reason instanceof ProtocolError && reason.code === 'server_unavailable') throw reason;
      const why = reason instanceof Error ? reason.message.replace(/^cannot start the pane: /, '') : String(reason);
      throw new ProtocolError('layout_apply_failed', `${planned[failedAt]?.path ?? 'root'} could not start: ${why}; the panes already started were ended`);
    }
    return facts;
  }

  /**
   * Reserves a uid for every leaf, in layout order, and works out its
   * directory: its own `cwd` (relative to the server's directory), else that
   * of its split's first leaf, else the server's directory (as `workspace.create`).
   * Answers the node as the registry keeps it and the directory of its first leaf.
   */
  private plan(node: LayoutTreeNode, path: string, inheritedCwd: string, keyOf: () => PaneKey, into: PlannedPane[]): { layout: LayoutNode; cwd: string } {
    if (node.type === 'pane') {
      const cwd = node.cwd === undefined ? inheritedCwd : resolve(node.cwd);
      const key = keyOf();
      const label = node.label?.trim() || undefined;
      into.push({ path, key, cwd, label, request: { cwd, command: node.command, env: node.env, cols: undefined, rows: undefined } });
      return { layout: leaf(key.uid), cwd };
    }
    const first = this.plan(node.first, `${path}.first`, inheritedCwd, keyOf, into);
    const second = this.plan(node.second, `${path}.second`, first.cwd, keyOf, into);
    return { layout: { kind: 'split', direction: node.direction, ratio: node.ratio, first: first.layout, second: second.layout }, cwd: first.cwd };
  }

  /** Every pane started: the workspace goes into the registry at once, with its events (as workspace.create and pane.split send them). */
  private add(
    request: LayoutApplyRequest,
    workspaceUid: number,
    shardId: number,
    layout: LayoutNode,
    planned: PlannedPane[],
    facts: PaneFacts[],
    batch: EventBatch,
  ): WorkspaceRecord {
    const focusBefore = this.registry.focusKey();
    const firstUid = planned[0]?.key.uid ?? 0;
    // restoreWorkspace takes a workspace whole, with its tree and panes in creation order (here: layout order).
    const workspace = this.registry.restoreWorkspace(
      { uid: workspaceUid, shardId, label: request.label, tabs: [{ uid: FIRST_TAB_UID, label: undefined, layout, focusedPaneUid: firstUid }], activeTabUid: FIRST_TAB_UID },
      planned.map((pane, index) => ({ key: pane.key, tabUid: FIRST_TAB_UID, facts: facts[index] as PaneFacts })),
    );
    if (request.focus) this.registry.focusWorkspace(workspace);
    for (const pane of planned) {
      const record = this.registry.paneByUid(pane.key.uid);
      if (record) record.label = pane.label;
    }
    addCreatedEvents(this.registry, workspace, focusBefore, batch);
    return workspace;
  }
}
