/**
 * What `tab.*` requests change (docs/protocol.md §5.3): a new tab starts its first pane
 * on its workspace's shard; focus, rename and close change the registry and add their
 * events to the request's batch.
 */
import { ProtocolError } from '../../protocol/errors.js';
import { lookedAt } from '../agents/agent-status.js';
import type { EventBatch } from '../event-hub.js';
import { addFocusEvents, withFocusEvents } from '../focus-events.js';
import { addLayoutUpdated } from '../layout-events.js';
import { errorNaming, paneMeta, tabRef, workspaceMeta } from '../ids.js';
import type { PaneRemoval } from '../pane-removal.js';
import type { PaneShards } from '../pane-shards.js';
import type { Registry, TabRecord, WorkspaceRecord } from '../registry.js';
import { paneInfo, tabInfo } from '../wire-views.js';
import type { PaneSpawner, SpawnRequest } from './pane-spawner.js';

export class TabOperations {
  constructor(
    private readonly registry: Registry,
    private readonly shards: PaneShards,
    private readonly spawner: PaneSpawner,
    private readonly removal: PaneRemoval,
  ) {}

  /** A new last tab with one pane, started where the workspace's focused pane is unless `cwd` says. */
  async create(workspace: WorkspaceRecord, request: SpawnRequest & { focus: boolean; label: string | undefined }, batch: EventBatch): Promise<TabRecord> {
    this.spawner.refuseWhileStopping();
    const shard = this.shards.of(workspace);
    const cwd = this.spawner.cwdOf(request, this.registry.focusedPaneOf(workspace)?.cwd ?? process.cwd());
    const tabUid = this.registry.reserveTabUid(workspace);
    const key = this.registry.reservePane(workspace);
    const facts = await this.spawner.spawn(request, { shard, workspaceUid: workspace.uid, tabUid, pane: key, cwd }, 'tab_create_failed');
    if (!this.registry.workspaces.includes(workspace)) {
      void shard.request('close', { paneUid: key.uid }).catch(() => undefined);
      throw errorNaming('workspace_not_found', (name) => `workspace ${name(workspace)} closed while its new tab started`);
    }
    const focusBefore = this.registry.focusKey();
    const tab = this.registry.addTab(workspace, tabUid, key, facts, request);
    batch.add('tab_created', { tab: tabInfo(this.registry, tab) }, workspaceMeta(workspace));
    for (const pane of this.registry.tabPanes(tab)) batch.add('pane_created', { pane: paneInfo(this.registry, pane) }, paneMeta(pane));
    addLayoutUpdated(this.registry, tab, batch);
    addFocusEvents(this.registry, focusBefore, batch);
    return tab;
  }

  /** The tab becomes its workspace's active one, the workspace the active one; its panes count as looked at. */
  focus(tab: TabRecord, batch: EventBatch): void {
    withFocusEvents(this.registry, batch, () => this.registry.focusTab(tab));
    for (const pane of this.registry.tabPanes(tab)) lookedAt(pane, batch);
  }

  rename(tab: TabRecord, label: string, batch: EventBatch): void {
    tab.customLabel = label;
    batch.add('tab_renamed', { ...tabRef(tab), label }, workspaceMeta(tab.workspace));
  }

  close(tab: TabRecord, batch: EventBatch): void {
    this.removal.closeTab(tab, batch);
  }
}
