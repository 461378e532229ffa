/**
 * `layout.apply` (docs/protocol.md §5.2): a new workspace built from a split
 * tree in one request, all or nothing. Every leaf is checked before anything
 * starts; then every pane is started; only when all started is the workspace
 * added to the registry (the main thread adds it in one go, so no other
 * request ever sees it half-built). A leaf that fails to start ends the
 * panes already started, and nothing is added and no event is sent.
 */
import { resolve } from 'node:path';
import { ProtocolError } from '../../protocol/errors.js';
import type { LayoutTreeNode } from '../../protocol/layout-tree.js';
import type { EventBatch } from '../event-hub.js';
import type { HeldReports } from '../held-reports.js';
import { type LayoutNode, leaf } from '../layout.js';
import type { PaneShards } from '../pane-shards.js';
import { FIRST_TAB_UID, type PaneFacts, type Registry, type WorkspaceRecord } from '../registry.js';
import type { PaneSpawner, SpawnRequest } from './pane-spawner.js';
import { addCreatedEvents } from './workspaces.js';

export interface LayoutApplyRequest {
  root: LayoutTreeNode;
  label: string | undefined;
  focus: boolean;
}

/** One leaf of the tree, ready to start: where it is in the tree, its uid, how it starts. */
interface PlannedPane {
  /** `root.first.second`: how an error names the leaf. */
  path: string;
  uid: number;
  /** Its `p<N>`: a new workspace numbers its panes from 1, in layout order. */
  stableNumber: number;
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
  ) {}

  /**
   * Builds the workspace; its events go to `batch`. `afterResponse` runs an
   * action after the response and its events are out: the new panes' own
   * reports (an early exit, …) are applied then, so they come after
   * `pane_created`.
   */
  async apply(request: LayoutApplyRequest, batch: EventBatch, afterResponse: (action: () => void) => void): Promise<WorkspaceRecord> {
    this.spawner.refuseWhileStopping();
    const planned: PlannedPane[] = [];
    const { layout } = this.plan(request.root, 'root', process.cwd(), planned);
    for (const pane of planned) {
      // The spawner's own checks, made for every leaf before any starts.
      const problem = this.spawner.startProblem(pane.request, pane.cwd);
      if (problem) throw new ProtocolError('layout_apply_failed', `${pane.path} cannot start: ${problem}; nothing was started`);
    }
    const shard = this.shards.pick();
    if (!shard) throw new ProtocolError('layout_apply_failed', `no shard is running: ${this.shards.describeBackoff()}`);
    const workspaceUid = this.registry.reserveWorkspaceUid();
    const uids = planned.map((pane) => pane.uid);
    this.held.hold(uids);
    // Whatever happens below, the hold ends once this request is answered.
    afterResponse(() => this.held.release(uids));

    // One shard takes them in turn; sent together, none waits for the one before to be answered.
    const started = await Promise.allSettled(
      planned.map((pane) =>
        this.spawner.spawn(pane.request, { shard, workspaceUid, tabUid: FIRST_TAB_UID, pane: { uid: pane.uid, stableNumber: pane.stableNumber }, cwd: pane.cwd }, 'workspace_create_failed'),
      ),
    );
    const facts: PaneFacts[] = [];
    for (const result of started) if (result.status === 'fulfilled') facts.push(result.value);
    const failedAt = started.findIndex((result) => result.status === 'rejected');
    const failure = started[failedAt];
    if (failure?.status === 'rejected') {
      started.forEach((result, index) => {
        if (result.status === 'fulfilled') void shard.request('close', { paneUid: uids[index] ?? 0 }).catch(() => undefined);
      });
      this.held.drop(uids);
      const reason: unknown = failure.reason;
      if (reason instanceof ProtocolError && reason.code === 'server_unavailable') throw reason;
      const why = reason instanceof Error ? reason.message.replace(/^cannot start the pane: /, '') : String(reason);
      throw new ProtocolError('layout_apply_failed', `${planned[failedAt]?.path ?? 'root'} could not start: ${why}; the panes already started were ended`);
    }
    return this.add(request, workspaceUid, shard.id, layout, planned, facts, batch);
  }

  /**
   * Reserves a uid for every leaf, in layout order, and works out its
   * directory: its own `cwd` (relative to the server's directory), else that
   * of its split's first leaf, else the server's directory (as `workspace.create`).
   * Answers the node as the registry keeps it and the directory of its first leaf.
   */
  private plan(node: LayoutTreeNode, path: string, inheritedCwd: string, into: PlannedPane[]): { layout: LayoutNode; cwd: string } {
    if (node.type === 'pane') {
      const cwd = node.cwd === undefined ? inheritedCwd : resolve(node.cwd);
      const uid = this.registry.reservePaneUid();
      const label = node.label?.trim() || undefined;
      into.push({ path, uid, stableNumber: into.length + 1, cwd, label, request: { cwd, command: node.command, env: node.env, cols: undefined, rows: undefined } });
      return { layout: leaf(uid), cwd };
    }
    const first = this.plan(node.first, `${path}.first`, inheritedCwd, into);
    const second = this.plan(node.second, `${path}.second`, first.cwd, into);
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
    const firstUid = planned[0]?.uid ?? 0;
    // restoreWorkspace takes a workspace whole, with its tree and panes in creation order (here: layout order).
    const workspace = this.registry.restoreWorkspace(
      { uid: workspaceUid, shardId, label: request.label, tabs: [{ uid: FIRST_TAB_UID, label: undefined, layout, focusedPaneUid: firstUid }], activeTabUid: FIRST_TAB_UID },
      planned.map((pane, index) => ({ key: { uid: pane.uid, stableNumber: pane.stableNumber }, tabUid: FIRST_TAB_UID, facts: facts[index] as PaneFacts })),
    );
    if (request.focus) this.registry.focusWorkspace(workspace);
    for (const pane of planned) {
      const record = this.registry.paneByUid(pane.uid);
      if (record) record.label = pane.label;
    }
    addCreatedEvents(this.registry, workspace, focusBefore, batch);
    return workspace;
  }
}
