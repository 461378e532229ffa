/**
 * Keeps the session file current (docs/persistence.md): a round starts about
 * a second after the first change and another follows if changes came in
 * meanwhile, so the file is never more than about two seconds behind, even
 * while panes print without pause. A round asks each shard for the panes that
 * changed (they append new full history blocks to their block files and sync
 * them first), then writes the whole session file atomically: workspaces,
 * panes, last screens and the unfinished history blocks, never whole
 * histories. Block files no snapshot names any more are deleted after.
 */
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { PaneTerminalState } from '../../protocol/thread.js';
import type { Registry } from '../registry.js';
import type { SavedTurn } from '../agents/turns.js';
import type { SavedRule } from '../rules/rule-book.js';
import type { ShardHandle } from '../shard-handle.js';
import { type SavedSession, encodeSession, writeFileAtomically } from './session-file.js';
import type { SessionPaths } from './state-dir.js';

export const SNAPSHOT_DEBOUNCE_MS = 1000;

export interface SnapshotFigures {
  bytes: number;
  /** From asking the shards to the file renamed into place. */
  ms: number;
  /** performance.now() when it was written, for its age (savedAt in the file is the wall-clock time). */
  at: number;
}

export interface SnapshotSource {
  registry: Registry;
  shards(): readonly ShardHandle[];
  /** The event rules and the next rule id. */
  rules(): { rules: SavedRule[]; nextRuleId: number };
  /** A pane's queued turns, and the next turn id. */
  turns: { saved(paneUid: number): SavedTurn[] | undefined; readonly nextTurnId: number };
}

export class Snapshotter {
  /** The last terminal state each pane's shard reported. */
  private readonly terminals = new Map<number, PaneTerminalState>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private pending = false;
  private stopped = false;
  last: SnapshotFigures | undefined;

  constructor(
    private readonly source: SnapshotSource,
    private readonly paths: SessionPaths,
  ) {}

  /** Something changed: a round within about a second. */
  changed(): void {
    this.pending = true;
    if (this.timer || this.running || this.stopped) return;
    this.timer = setTimeout(() => void this.round(), SNAPSHOT_DEBOUNCE_MS);
    this.timer.unref();
  }

  /** The last round, now, with everything up to here (at shutdown, before the panes are ended); no rounds after. */
  async flush(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
    this.pending = true;
    await this.round(true);
  }

  private round(final = false): Promise<void> {
    this.timer = undefined;
    if (!this.pending) return Promise.resolve();
    this.pending = false;
    const running = this.write()
      .catch((error: unknown) => {
        console.error(`herdr: the session snapshot was not written: ${error instanceof Error ? error.message : String(error)}`);
      })
      .finally(() => {
        this.running = undefined;
        if (this.pending && !final) this.changed();
      });
    this.running = running;
    return running;
  }

  private async write(): Promise<void> {
    const started = performance.now();
    const { registry } = this.source;
    const replies = await Promise.all(
      this.source.shards().map((shard) => shard.request('persist', { all: false }).catch(() => ({ panes: [], blockFile: undefined, owesRound: false }))),
    );
    // A busy shard stored blocks uncompressed, or left a flooding pane for later: another round.
    if (replies.some((reply) => reply.owesRound)) this.pending = true;
    for (const reply of replies) for (const pane of reply.panes) this.terminals.set(pane.paneUid, pane);
    for (const uid of this.terminals.keys()) if (!registry.paneByUid(uid)) this.terminals.delete(uid);
    const session = this.session();
    const data = encodeSession(session);
    await writeFileAtomically(this.paths.session, data);
    await this.removeUnnamedBlockFiles(session, replies.map((reply) => reply.blockFile));
    const written = performance.now();
    this.last = { bytes: data.length, ms: written - started, at: written };
  }

  private session(): Omit<SavedSession, 'format' | 'version'> {
    const { registry } = this.source;
    const next = registry.nextUids;
    return {
      savedAt: Date.now(),
      activeWorkspaceUid: registry.activeWorkspace?.uid,
      nextWorkspaceUid: next.workspace,
      nextPaneUid: next.pane,
      ...this.source.rules(),
      nextTurnId: this.source.turns.nextTurnId,
      workspaces: registry.workspaces.map((workspace) => ({
        uid: workspace.uid,
        label: workspace.customLabel,
        focusedPaneUid: workspace.tabs[0]?.focusedPaneUid ?? workspace.activeTab.focusedPaneUid,
        layout: workspace.tabs[0]?.layout ?? workspace.activeTab.layout,
        tabs: workspace.tabs.map((tab) => ({ uid: tab.uid, label: tab.customLabel, focusedPaneUid: tab.focusedPaneUid, layout: tab.layout, ...(tab.zoomed ? { zoomed: true } : {}) })),
        activeTabUid: workspace.activeTab.uid,
        nextPaneNumber: workspace.nextPaneNumber,
        worktree: workspace.worktree,
        panes: workspace.panes.map((pane) => {
          const terminal = this.terminals.get(pane.uid);
          const previous = pane.occupant.previousSession;
          return {
            uid: pane.uid,
            stableNumber: pane.stableNumber,
            command: pane.launch.command,
            env: pane.launch.env,
            cwd: terminal?.cwd ?? pane.cwd,
            label: pane.label,
            cols: pane.cols,
            rows: pane.rows,
            agent: pane.occupant.agent ?? previous?.agent,
            agentInstanceId: pane.occupant.agent === undefined ? undefined : pane.occupant.instanceId,
            agentName: pane.occupant.agent === undefined ? undefined : pane.occupant.name,
            queue: this.source.turns.saved(pane.uid),
            agentSession: pane.occupant.session ?? (previous ? { id: previous.id, path: previous.path } : undefined),
            history: terminal?.history,
            screen: terminal?.screen,
          };
        }),
      })),
    };
  }

  /**
   * Block files neither named by the session just written nor being appended to by a shard.
   * Off the main thread: unlinking a file of a few MB took the kernel up to tens of ms, which
   * every request waited out (`ping` p99 under a flood). No round starts before this one ends,
   * and shards only start block files when a round asks, so none is new here meanwhile.
   */
  private async removeUnnamedBlockFiles(session: Omit<SavedSession, 'format' | 'version'>, active: Array<string | undefined>): Promise<void> {
    const keep = new Set(active.filter((file): file is string => file !== undefined));
    for (const workspace of session.workspaces) {
      for (const pane of workspace.panes) for (const block of pane.history?.blocks ?? []) keep.add(block.file);
    }
    const unnamed = (await readdir(this.paths.blocks)).filter((file) => !keep.has(file));
    await Promise.all(unnamed.map((file) => rm(join(this.paths.blocks, file), { force: true })));
  }
}
