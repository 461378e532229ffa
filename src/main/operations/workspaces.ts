/**
 * What `workspace.*` requests change (docs/protocol.md §5): each checks its
 * input, has the shard do the PTY side, updates the registry and adds the
 * events it caused to the request's batch.
 */
import { ProtocolError } from '../../protocol/errors.js';
import type { WorkspaceWorktree } from '../../protocol/objects.js';
import type { EventBatch } from '../event-hub.js';
import { lookedAt } from '../agents/agent-status.js';
import { withFocusEvents } from '../focus-events.js';
import { addLayoutUpdated } from '../layout-events.js';
import { paneMeta, paneRef, tabRef, workspaceMeta, workspaceRef } from '../ids.js';
import type { PaneRemoval } from '../pane-removal.js';
import type { PaneShards } from '../pane-shards.js';
import { FIRST_TAB_UID, type Registry, type WorkspaceRecord } from '../registry.js';
import { paneInfo, tabInfo, workspaceInfo } from '../wire-views.js';
import type { PaneSpawner, SpawnRequest } from './pane-spawner.js';

/**
 * The events of a workspace just added with its panes (workspace.create, layout.apply):
 * each thing's creation before its focus: workspace_created, workspace_focused,
 * tab_created and tab_focused, pane_created for each pane in layout order, pane_focused
 * (the focus events only when the focus moved since `focusBefore`).
 */
export function addCreatedEvents(registry: Registry, workspace: WorkspaceRecord, focusBefore: string, batch: EventBatch): void {
  const meta = workspaceMeta(workspace);
  batch.add('workspace_created', { workspace: workspaceInfo(registry, workspace) }, meta);
  const focusMoved = registry.focusKey() !== focusBefore;
  if (focusMoved) batch.add('workspace_focused', workspaceRef(workspace), meta);
  for (const tab of workspace.tabs) batch.add('tab_created', { tab: tabInfo(registry, tab) }, meta);
  if (focusMoved) batch.add('tab_focused', tabRef(workspace.activeTab), meta);
  for (const pane of registry.panesInLayoutOrder(workspace)) batch.add('pane_created', { pane: paneInfo(registry, pane) }, paneMeta(pane));
  for (const tab of workspace.tabs) addLayoutUpdated(registry, tab, batch);
  const focused = registry.focusedPaneOf(workspace);
  if (focusMoved && focused) batch.add('pane_focused', paneRef(focused), paneMeta(focused));
}

export class WorkspaceOperations {
  constructor(
    private readonly registry: Registry,
    private readonly shards: PaneShards,
    private readonly spawner: PaneSpawner,
    private readonly removal: PaneRemoval,
  ) {}

  async create(request: SpawnRequest & { focus: boolean; label: string | undefined; worktree?: WorkspaceWorktree }, batch: EventBatch): Promise<WorkspaceRecord> {
    this.spawner.refuseWhileStopping();
    const cwd = this.spawner.cwdOf(request, process.cwd());
    const workspaceUid = this.registry.reserveWorkspaceUid();
    // A new workspace's first pane is its p1.
    const key = { uid: this.registry.reservePaneUid(), stableNumber: 1 };
    const shard = this.shards.pick();
    if (!shard) throw new ProtocolError('workspace_create_failed', `no shard is running: ${this.shards.describeBackoff()}`);
    const facts = await this.spawner.spawn(request, { shard, workspaceUid, tabUid: FIRST_TAB_UID, pane: key, cwd }, 'workspace_create_failed');
    const focusBefore = this.registry.focusKey();
    const workspace = this.registry.addWorkspace(workspaceUid, shard.id, key, facts, request);
    addCreatedEvents(this.registry, workspace, focusBefore, batch);
    return workspace;
  }

  focus(workspace: WorkspaceRecord, batch: EventBatch): void {
    withFocusEvents(this.registry, batch, () => this.registry.focusWorkspace(workspace));
    for (const pane of workspace.panes) lookedAt(pane, batch);
  }

  rename(workspace: WorkspaceRecord, label: string, batch: EventBatch): void {
    this.registry.rename(workspace, label);
    batch.add('workspace_renamed', { ...workspaceRef(workspace), label }, workspaceMeta(workspace));
  }

  close(workspace: WorkspaceRecord, batch: EventBatch): void {
    this.removal.closeWorkspace(workspace, batch);
  }
}
