/**
 * The one place that decides a pane is gone, whichever way it went: a client
 * closed it or its workspace, its program exited, or its shard died. Each
 * way ends the same: the registry forgets it (renumbering the rest), its
 * output matchers and open waits are told, and its events go out in order
 * (`pane_exited` first when it exited, then `pane_closed`, `tab_closed` when it
 * was its tab's last and the workspace has other tabs, `workspace_closed` when it
 * was the workspace's last, and the focus events).
 */
import type { EventBatch } from './event-hub.js';
import { addFocusEvents } from './focus-events.js';
import { addLayoutUpdated } from './layout-events.js';
import { paneMeta, paneRef, tabRef, workspaceMeta, workspaceRef } from './ids.js';
import type { OutputMatchers } from './output-matchers.js';
import type { ReportedMetadata } from './metadata.js';
import type { PaneShards } from './pane-shards.js';
import type { PaneStreams } from './pane-streams.js';
import type { PaneRecord, Registry, TabRecord, WorkspaceRecord } from './registry.js';

/** How a pane's program ended; empty when its shard died and no one knows. */
export interface PaneExit {
  exit_code?: number;
  signal?: number;
}

export class PaneRemoval {
  constructor(
    private readonly registry: Registry,
    private readonly matchers: OutputMatchers,
    private readonly streams: PaneStreams,
    private readonly shards: PaneShards,
    private readonly metadata: ReportedMetadata,
  ) {}

  /** A client closed the pane: its shard ends its processes (no `pane_exited`). */
  close(pane: PaneRecord, batch: EventBatch): void {
    void this.shards.of(pane).request('close', { paneUid: pane.uid }).catch(() => undefined);
    this.remove(pane, batch);
  }

  /**
   * A client closed a tab: its panes' processes end, `pane_closed` for each (a 0.2.0
   * client knows panes, not tabs), then `tab_closed`; the last tab closes the workspace.
   */
  closeTab(tab: TabRecord, batch: EventBatch): void {
    const { workspace } = tab;
    if (workspace.tabs.length === 1) return this.closeWorkspace(workspace, batch);
    const panes = this.registry.tabPanes(tab);
    const refs = panes.map((pane) => ({ ref: paneRef(pane), meta: paneMeta(pane) }));
    const closed = tabRef(tab);
    const focusBefore = this.registry.focusKey();
    this.registry.removeTab(tab);
    for (const pane of panes) {
      void this.shards.find(pane)?.request('close', { paneUid: pane.uid }).catch(() => undefined);
      this.matchers.paneGone(pane.uid);
      this.metadata.paneGone(pane);
    }
    for (const { ref, meta } of refs) batch.add('pane_closed', ref, meta);
    batch.add('tab_closed', closed, workspaceMeta(workspace));
    addFocusEvents(this.registry, focusBefore, batch);
  }

  /** A client closed the workspace: every pane's processes end, one `workspace_closed`. */
  closeWorkspace(workspace: WorkspaceRecord, batch: EventBatch): void {
    // A workspace whose shard is already gone still closes: there is nothing left to end.
    for (const pane of workspace.panes) void this.shards.find(pane)?.request('close', { paneUid: pane.uid }).catch(() => undefined);
    const closed = workspaceRef(workspace);
    const focusBefore = this.registry.focusKey();
    const panes = [...workspace.panes];
    this.registry.removeWorkspace(workspace);
    for (const pane of panes) this.matchers.paneGone(pane.uid);
    this.metadata.workspaceGone(workspace);
    batch.add('workspace_closed', closed, workspaceMeta(workspace));
    addFocusEvents(this.registry, focusBefore, batch);
  }

  /** The pane's program exited, or its shard died: its streams end, then it is removed. */
  exited(paneUid: number, exit: PaneExit, batch: EventBatch): void {
    // Streams end whenever the program does, also after a client closed the pane.
    this.streams.exited(paneUid, exit);
    const pane = this.registry.paneByUid(paneUid);
    if (!pane) return;
    batch.add('pane_exited', { ...paneRef(pane), ...exit }, paneMeta(pane));
    this.remove(pane, batch);
  }

  private remove(pane: PaneRecord, batch: EventBatch): void {
    const ref = paneRef(pane);
    const workspaceClosedRef = workspaceRef(pane.workspace);
    const tabClosedRef = tabRef(pane.tab);
    const meta = paneMeta(pane);
    const focusBefore = this.registry.focusKey();
    const { tabClosed, workspaceClosed } = this.registry.removePane(pane);
    this.matchers.paneGone(pane.uid);
    this.metadata.paneGone(pane);
    if (workspaceClosed) this.metadata.workspaceGone(pane.workspace);
    batch.add('pane_closed', ref, meta);
    if (tabClosed && !workspaceClosed) batch.add('tab_closed', tabClosedRef, { workspaceStableId: meta.workspaceStableId });
    if (!tabClosed) addLayoutUpdated(this.registry, pane.tab, batch);
    if (workspaceClosed) batch.add('workspace_closed', workspaceClosedRef, { workspaceStableId: meta.workspaceStableId });
    addFocusEvents(this.registry, focusBefore, batch);
  }
}
