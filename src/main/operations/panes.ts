/**
 * What `pane.*` requests do (docs/protocol.md §5) and the hook reports
 * (§10.5): text, input and sizes go to the pane's shard; splits and closes
 * change the registry and add their events to the request's batch.
 */
import type { SplitDirection } from '../../protocol/enums.js';
import { ProtocolError } from '../../protocol/errors.js';
import { type ResolvedKey, resolveKey } from '../../protocol/keys.js';
import type { PaneRead } from '../../protocol/objects.js';
import type { ReadWindow } from '../../protocol/read-window.js';
import type { ClearAuthority, HookReport, ReadResult, ScrollMove, SubmitResult } from '../../protocol/thread.js';
import type { EventBatch } from '../event-hub.js';
import { addFocusEvents } from '../focus-events.js';
import { addLayoutUpdated } from '../layout-events.js';
import { currentPaneIds, errorNaming, paneIds, paneMeta, tabStableId, withCurrentView } from '../ids.js';
import type { PaneRemoval } from '../pane-removal.js';
import type { PaneShards } from '../pane-shards.js';
import type { PaneRecord, Registry } from '../registry.js';
import { paneInfo } from '../wire-views.js';
import type { PaneSpawner, SpawnRequest } from './pane-spawner.js';

export class PaneOperations {
  constructor(
    private readonly registry: Registry,
    private readonly shards: PaneShards,
    private readonly spawner: PaneSpawner,
    private readonly removal: PaneRemoval,
  ) {}

  async split(
    target: PaneRecord,
    request: SpawnRequest & { direction: SplitDirection; focus: boolean; label?: string | undefined; ratio?: number | undefined },
    batch: EventBatch,
  ): Promise<PaneRecord> {
    const workspace = target.workspace;
    const shard = this.shards.of(workspace);
    const key = this.registry.reservePane(workspace);
    const cwd = this.spawner.cwdOf(request, target.cwd ?? process.cwd());
    const inherit = request.cwd === undefined ? { inheritCwdFromPaneUid: target.uid } : {};
    const facts = await this.spawner.spawn(request, { shard, workspaceUid: workspace.uid, tabUid: target.tab.uid, pane: key, cwd, ...inherit }, 'pane_split_failed');
    if (this.registry.paneByUid(target.uid) !== target) {
      void shard.request('close', { paneUid: key.uid }).catch(() => undefined);
      throw errorNaming('pane_not_found', (name) => `pane ${name(target)} closed during the split`);
    }
    const focusBefore = this.registry.focusKey();
    const pane = this.registry.addSplitPane(target, key, request.direction, facts, request.focus, request.ratio);
    pane.label = request.label;
    batch.add('pane_created', { pane: paneInfo(this.registry, pane) }, paneMeta(pane));
    addLayoutUpdated(this.registry, pane.tab, batch);
    addFocusEvents(this.registry, focusBefore, batch);
    return pane;
  }

  close(pane: PaneRecord, batch: EventBatch): void {
    this.removal.close(pane, batch);
  }

  async read(pane: PaneRecord, window: ReadWindow): Promise<PaneRead> {
    const result = await this.shards
      .of(pane)
      .request('read', { paneUid: pane.uid, ...window })
      .catch((error: unknown) => this.shards.refused(pane, error, 'pane_not_found'));
    return this.paneRead(pane, window, result);
  }

  /** A shard's read as the wire's pane_read, with the pane's ids as they are now. */
  paneRead(pane: PaneRecord, window: Pick<ReadWindow, 'source' | 'stripAnsi'>, result: ReadResult): PaneRead {
    pane.revision = Math.max(pane.revision, result.revision);
    const { pane_id, workspace_id, stable_id } = paneIds(pane);
    const tab_id = tabStableId(pane.workspace.uid, pane.tab.uid);
    // A detection read is plain text whatever was asked (the agent checks read no escapes).
    const format = window.stripAnsi || window.source === 'detection' ? 'text' : 'ansi';
    return withCurrentView<PaneRead>(
      { pane_id, workspace_id, source: window.source, text: result.text, revision: result.revision, truncated: result.truncated, stable_id, tab_id, format },
      currentPaneIds(pane),
    );
  }

  /** Resolves every key first: one bad key and nothing is written. */
  async input(pane: PaneRecord, text: string, keyNames: readonly string[], paste: boolean): Promise<void> {
    const keys: ResolvedKey[] = keyNames.map((name) => {
      const key = resolveKey(name);
      if (!key) throw new ProtocolError('invalid_key', `unsupported key ${name}`);
      return key;
    });
    await this.shards
      .of(pane)
      .request('input', { paneUid: pane.uid, text, keys, paste })
      .catch((error: unknown) => this.shards.refused(pane, error, 'pane_send_failed'));
  }

  /** Types a prompt into the pane's agent and presses Enter as that CLI takes it (workers/agents/prompt-submission.ts). */
  submit(pane: PaneRecord, text: string, stallMs: number): Promise<SubmitResult> {
    return this.shards
      .of(pane)
      .request('submit', { paneUid: pane.uid, text, stallMs })
      .catch((error: unknown) => this.shards.refused(pane, error, 'pane_send_failed'));
  }

  /** Moves the pane's view over its history (docs/protocol.md §5.4); the cached position follows. */
  async scroll(pane: PaneRecord, move: ScrollMove): Promise<boolean> {
    const { changed, scroll } = await this.shards
      .of(pane)
      .request('scroll', { paneUid: pane.uid, move })
      .catch((error: unknown) => this.shards.refused(pane, error, 'pane_not_found'));
    pane.scroll = scroll;
    return changed;
  }

  async resize(pane: PaneRecord, cols: number, rows: number): Promise<void> {
    await this.shards
      .of(pane)
      .request('resize', { paneUid: pane.uid, cols, rows })
      .catch((error: unknown) => this.shards.refused(pane, error, 'pane_not_found'));
    pane.cols = cols;
    pane.rows = rows;
  }

  /**
   * Passes a hook report to the pane's shard, which applies the seq and
   * authority rules (docs/protocol.md §10.5). Not awaited: hooks are answered at
   * once, whatever the shard is busy with.
   */
  reportAgent(pane: PaneRecord, report: HookReport): void {
    void this.shards.of(pane).request('hook', report).catch(() => undefined);
  }

  clearAgentAuthority(pane: PaneRecord, request: ClearAuthority): void {
    void this.shards.of(pane).request('clearAuthority', request).catch(() => undefined);
  }
}
