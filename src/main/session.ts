/**
 * The server's operations on workspaces and panes: each one checks its input,
 * asks the owning shard to do the PTY side, updates the registry and records
 * the events it caused. Handlers call these; shards report back through the
 * ShardListener half.
 */
import { resolve } from 'node:path';
import { ProtocolError } from '../protocol/errors.js';
import { type ResolvedKey, resolveKey } from '../protocol/keys.js';
import { lifecycleData } from '../protocol/events.js';
import type { PaneRead, ReadSource, ServerStats } from '../protocol/objects.js';
import type { AgentPicture, ClearAuthority, HookReport, PaneNotification, PaneUpdate, ReadResult, SpawnParams } from '../protocol/thread.js';
import { VERSION } from '../protocol/version.js';
import { EventBatch, EventHub, type EventMeta, type LoggedEvent } from './events.js';
import type { SplitDirection } from './layout.js';
import type { LoopDelayMonitor } from './loop-delay.js';
import { PaneStreams } from './pane-streams.js';
import { type RestorePlan, keptLayout, restorePlan } from './persistence/restore-plan.js';
import type { SavedSession } from './persistence/session-file.js';
import { Snapshotter } from './persistence/snapshotter.js';
import type { SessionPaths } from './persistence/state-dir.js';
import { type PaneFacts, type PaneRecord, Registry, type WorkspaceRecord, paneStableId, workspaceStableId } from './registry.js';
import type { ShardHandle, ShardListener, ShardSettings } from './shard-handle.js';
import { ShardPool } from './shard-pool.js';
import { directoryProblem, paneEnvironment, programProblem } from './spawn-spec.js';
import { type WatchChange, Watches } from './watches.js';

export interface SessionOptions {
  socketPath: string;
  workers: number;
  cols: number;
  rows: number;
  /** The program of a pane without `command`. */
  shell: string;
  /** How shards are run and watched (stall deadline, heap limit, debug faults, block files). */
  shards: ShardSettings;
  /** Where the session is kept between runs (docs/persistence.md); undefined: nothing is kept. */
  persistence: { paths: SessionPaths; restore: boolean; resumeAgents: boolean } | undefined;
}

export interface SpawnRequest {
  cwd: string | undefined;
  command: string[] | undefined;
  env: Record<string, string> | undefined;
  cols: number | undefined;
  rows: number | undefined;
}

export class Session implements ShardListener {
  readonly registry = new Registry();
  readonly events = new EventHub();
  readonly watches = new Watches();
  /** Open `pane.stream`s, by pane. */
  readonly streams: PaneStreams;
  /** Writes the session file as things change (undefined when nothing is kept). */
  readonly snapshots: Snapshotter | undefined;
  /** `server.restored`, when this server started from a snapshot: every `server.restored` subscriber gets it. */
  restoredEvent: LoggedEvent | undefined;
  /** Open waits and subscriptions, counted by their handlers for `server.stats`. */
  readonly activity = { waits: 0, subscriptions: 0 };
  private readonly shards: ShardPool;
  private readonly startedAt = Date.now();
  private stopping = false;

  constructor(
    private readonly options: SessionOptions,
    private readonly loopDelay: LoopDelayMonitor,
  ) {
    this.shards = new ShardPool(options.workers, this, options.shards);
    this.streams = new PaneStreams(this.registry);
    if (options.persistence) {
      this.snapshots = new Snapshotter({ registry: this.registry, shards: () => this.shards.all }, options.persistence.paths);
      this.events.listen(() => this.changed());
    }
  }

  /** Something a snapshot keeps changed (the server calls this after every request that may change things). */
  changed(): void {
    this.snapshots?.changed();
  }

  /**
   * Brings back a saved session (docs/persistence.md): each workspace on a
   * shard as a new one would be, its panes with their stable uids, commands
   * (or resume commands), directories, sizes and old rows, its layout, label
   * and focus. A pane that cannot start is left out (and its leaf with it).
   */
  async restore(saved: SavedSession, options: { resumeAgents: boolean }): Promise<{ workspaces: number; panes: number }> {
    this.registry.advanceUids(saved.nextWorkspaceUid, saved.nextPaneUid);
    const context = { shell: this.options.shell, home: process.env.HOME ?? '/', resumeAgents: options.resumeAgents, savedAt: saved.savedAt };
    let panes = 0;
    for (const workspace of saved.workspaces) {
      const shard = this.shards.pick((id) => this.panesOnShard(id));
      if (!shard) break;
      const started: Array<{ uid: number; facts: PaneFacts; plan: RestorePlan }> = [];
      for (const pane of workspace.panes) {
        const plan = restorePlan(pane, context);
        const size = { cols: pane.cols, rows: pane.rows };
        try {
          const result = await shard.spawn({
            paneUid: pane.uid,
            workspaceUid: workspace.uid,
            argv: plan.argv,
            cwd: plan.cwd,
            env: paneEnvironment(pane.env, this.envIds(workspace.uid, pane.uid)),
            ...size,
            restore: { history: pane.history ?? { blocks: [], firstRow: 0 }, screen: pane.screen ?? new Uint8Array(), marker: plan.marker },
          });
          started.push({ uid: pane.uid, facts: { ...result, ...size, launch: { command: plan.command, env: pane.env } }, plan });
        } catch (error) {
          console.error(`herdr: pane ${paneStableId(workspace.uid, pane.uid)} could not be restored: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
      if (started.length === 0) continue;
      const { layout, focusedPaneUid } = keptLayout(workspace, new Set(started.map((pane) => pane.uid)));
      const record = this.registry.restoreWorkspace(
        { uid: workspace.uid, shardId: shard.id, label: workspace.label, layout, focusedPaneUid },
        started.map(({ uid, facts }) => ({ uid, facts })),
      );
      for (const { uid, plan } of started) {
        const restored = this.registry.paneByUid(uid);
        if (!restored) continue;
        restored.restored = true;
        restored.previousAgentSession = plan.previousAgentSession;
        panes++;
      }
      if (workspace.uid === saved.activeWorkspaceUid) this.registry.focusWorkspace(record);
    }
    const counts = { workspaces: this.registry.workspaces.length, panes };
    this.restoredEvent = this.events.publish({ event: 'server.restored', data: counts });
    return counts;
  }

  newBatch(): EventBatch {
    return new EventBatch(this.events);
  }

  async createWorkspace(
    request: SpawnRequest & { focus: boolean; label: string | undefined },
    batch: EventBatch,
  ): Promise<WorkspaceRecord> {
    this.refuseWhileStopping();
    const cwd = resolve(request.cwd ?? process.cwd());
    const argv = this.checkedArgv(request, cwd, 'workspace_create_failed');
    const workspaceUid = this.registry.reserveWorkspaceUid();
    const paneUid = this.registry.reservePaneUid();
    const shard = this.shards.pick((id) => this.panesOnShard(id));
    if (!shard) throw new ProtocolError('workspace_create_failed', `no shard is running: ${this.shards.describeBackoff()}`);
    const size = this.paneSize(request);
    const started = await this.spawn(shard, 'workspace_create_failed', {
      paneUid,
      workspaceUid,
      argv,
      cwd,
      env: paneEnvironment(request.env, this.envIds(workspaceUid, paneUid)),
      ...size,
    });
    const focusBefore = this.registry.focusKey();
    const launch = { command: request.command, env: request.env };
    const workspace = this.registry.addWorkspace(workspaceUid, shard.id, paneUid, { ...started, ...size, launch }, request);
    batch.add('workspace_created', { workspace: this.registry.workspaceInfo(workspace) }, { workspaceStableId: workspaceStableId(workspace.uid) });
    const focusChanged = this.registry.focusKey() !== focusBefore;
    if (focusChanged) batch.add('workspace_focused', { workspace_id: String(workspace.position) }, { workspaceStableId: workspaceStableId(workspace.uid) });
    const pane = this.registry.paneByUid(paneUid);
    if (pane) {
      batch.add('pane_created', { pane: this.registry.paneInfo(pane) }, this.paneMeta(pane));
      if (focusChanged) batch.add('pane_focused', this.paneRef(pane), this.paneMeta(pane));
    }
    return workspace;
  }

  async splitPane(
    target: PaneRecord,
    request: SpawnRequest & { direction: SplitDirection; focus: boolean },
    batch: EventBatch,
  ): Promise<PaneRecord> {
    this.refuseWhileStopping();
    const cwd = request.cwd === undefined ? (target.cwd ?? process.cwd()) : resolve(request.cwd);
    const argv = this.checkedArgv(request, cwd, 'pane_split_failed');
    const workspace = target.workspace;
    const shard = this.shardOf(workspace);
    const paneUid = this.registry.reservePaneUid();
    const size = this.paneSize(request);
    const started = await this.spawn(shard, 'pane_split_failed', {
      paneUid,
      workspaceUid: workspace.uid,
      argv,
      cwd,
      ...(request.cwd === undefined ? { inheritCwdFromPaneUid: target.uid } : {}),
      env: paneEnvironment(request.env, this.envIds(workspace.uid, paneUid)),
      ...size,
    });
    if (this.registry.paneByUid(target.uid) !== target) {
      void shard.request('close', { paneUid }).catch(() => undefined);
      throw new ProtocolError('pane_not_found', `pane ${this.registry.paneIds(target).pane_id} closed during the split`);
    }
    const focusBefore = this.registry.focusKey();
    const launch = { command: request.command, env: request.env };
    const pane = this.registry.addSplitPane(target, paneUid, request.direction, { ...started, ...size, launch }, request.focus);
    batch.add('pane_created', { pane: this.registry.paneInfo(pane) }, this.paneMeta(pane));
    this.addFocusEvents(focusBefore, batch);
    return pane;
  }

  focusWorkspace(workspace: WorkspaceRecord, batch: EventBatch): void {
    const focusBefore = this.registry.focusKey();
    this.registry.focusWorkspace(workspace);
    this.addFocusEvents(focusBefore, batch);
  }

  closePane(pane: PaneRecord, batch: EventBatch): void {
    void this.shardOf(pane.workspace).request('close', { paneUid: pane.uid }).catch(() => undefined);
    this.removePane(pane, batch);
  }

  closeWorkspace(workspace: WorkspaceRecord, batch: EventBatch): void {
    const shard = this.shards.get(workspace.shardId);
    for (const pane of workspace.panes) void shard?.request('close', { paneUid: pane.uid }).catch(() => undefined);
    const workspaceId = String(workspace.position);
    const focusBefore = this.registry.focusKey();
    const panes = [...workspace.panes];
    this.registry.removeWorkspace(workspace);
    for (const pane of panes) this.watches.paneGone(pane.uid);
    batch.add('workspace_closed', { workspace_id: workspaceId }, { workspaceStableId: workspaceStableId(workspace.uid) });
    this.addFocusEvents(focusBefore, batch);
  }

  async read(pane: PaneRecord, source: ReadSource, lines: number, stripAnsi: boolean): Promise<PaneRead> {
    const result = await this.shardOf(pane.workspace)
      .request('read', { paneUid: pane.uid, source, lines, stripAnsi })
      .catch((error: unknown) => this.paneGone(pane, error, 'pane_not_found'));
    return this.paneRead(pane, source, result);
  }

  /** A shard's read as the wire's pane_read, with the pane's ids as they are now. */
  paneRead(pane: PaneRecord, source: ReadSource, result: ReadResult): PaneRead {
    pane.revision = Math.max(pane.revision, result.revision);
    const { pane_id, workspace_id, stable_id } = this.registry.paneIds(pane);
    return { pane_id, workspace_id, source, text: result.text, revision: result.revision, truncated: result.truncated, stable_id };
  }

  /** The shard that holds a pane. */
  shardOf(workspace: WorkspaceRecord): ShardHandle {
    const shard = this.shards.get(workspace.shardId);
    if (!shard) throw new ProtocolError('internal_error', `shard ${workspace.shardId} of workspace ${workspaceStableId(workspace.uid)} is gone`);
    return shard;
  }

  /** Resolves every key first: one bad key and nothing is written. */
  async input(pane: PaneRecord, text: string, keyNames: readonly string[], paste: boolean): Promise<void> {
    const keys: ResolvedKey[] = keyNames.map((name) => {
      const key = resolveKey(name);
      if (!key) throw new ProtocolError('invalid_key', `unsupported key ${name}`);
      return key;
    });
    await this.shardOf(pane.workspace)
      .request('input', { paneUid: pane.uid, text, keys, paste })
      .catch((error: unknown) => this.paneGone(pane, error, 'pane_send_failed'));
  }

  /**
   * Passes a hook report to the pane's shard, which applies the seq and
   * authority rules (docs/protocol.md §10.5). Not awaited: hooks are answered at
   * once, whatever the shard is busy with.
   */
  reportAgent(pane: PaneRecord, report: HookReport): void {
    void this.shardOf(pane.workspace).request('hook', report).catch(() => undefined);
  }

  clearAgentAuthority(pane: PaneRecord, request: ClearAuthority): void {
    void this.shardOf(pane.workspace).request('clearAuthority', request).catch(() => undefined);
  }

  async resize(pane: PaneRecord, cols: number, rows: number): Promise<void> {
    await this.shardOf(pane.workspace)
      .request('resize', { paneUid: pane.uid, cols, rows })
      .catch((error: unknown) => this.paneGone(pane, error, 'pane_not_found'));
    pane.cols = cols;
    pane.rows = rows;
  }

  async stats(connections: number): Promise<ServerStats> {
    const shards = await Promise.all(
      this.shards.all.map(async (shard) => {
        const stats = await shard
          .request('stats', {})
          .catch(() => ({ panes: 0, bytesParsed: 0, matchers: 0, heapUsedBytes: 0 }));
        return {
          shard_id: shard.id,
          workspaces: this.registry.workspaces.filter((w) => w.shardId === shard.id).length,
          panes: stats.panes,
          bytes_parsed: stats.bytesParsed,
          matchers: stats.matchers,
          heap_used_bytes: stats.heapUsedBytes,
        };
      }),
    );
    const memory = process.memoryUsage();
    const last = this.shards.lastDeath;
    const snapshot = this.snapshots?.last;
    return {
      version: VERSION,
      uptime_ms: Date.now() - this.startedAt,
      workspaces: this.registry.workspaces.length,
      panes: this.registry.paneCount,
      connections,
      subscriptions: this.activity.subscriptions,
      streams: this.streams.count,
      waits: this.activity.waits,
      matchers: shards.reduce((sum, s) => sum + s.matchers, 0),
      events_emitted: this.events.emitted,
      rss_bytes: memory.rss,
      heap_used_bytes: memory.heapUsed,
      loop_delay_p99_ms: this.loopDelay.p99Ms(),
      loop_delay_max_ms: this.loopDelay.maxMs(),
      cpu_ms: cpuMs(),
      shards,
      shard_deaths: this.shards.deaths,
      shard_restarts_pending: this.shards.restartsPending,
      ...(last ? { last_shard_death: { shard_id: last.shardId, reason: last.reason, ms_ago: Date.now() - last.at } } : {}),
      ...(snapshot ? { last_snapshot: { bytes: snapshot.bytes, write_ms: Math.round(snapshot.ms * 10) / 10, ms_ago: Date.now() - snapshot.at } } : {}),
    };
  }

  /** Writes the last snapshot, then ends every pane's processes and every shard. */
  async stop(): Promise<void> {
    // No new work from here; the last snapshot has the session as it stands.
    this.stopping = true;
    await this.snapshots?.flush();
    await this.shards.stop();
  }

  // ShardListener

  paneUpdates(_shard: ShardHandle, updates: PaneUpdate[]): void {
    for (const update of updates) {
      const pane = this.registry.paneByUid(update.paneUid);
      if (!pane) continue;
      if (update.revision !== undefined) {
        pane.revision = Math.max(pane.revision, update.revision);
        // Its first new output: the pane is no longer just what was restored.
        if (update.revision > 0) pane.restored = false;
        this.changed();
      }
      if (update.cwd !== undefined) pane.cwd = update.cwd;
      if (update.cwdLabel !== undefined) pane.cwdLabel = update.cwdLabel;
      if (update.title !== undefined) pane.title = update.title;
    }
  }

  paneExited(_shard: ShardHandle, paneUid: number, exitCode: number, signal: number | undefined): void {
    const exit = { exit_code: exitCode, ...(signal === undefined ? {} : { signal }) };
    // Streams end whenever the program does, also after a client closed the pane.
    this.streams.exited(paneUid, exit);
    const pane = this.registry.paneByUid(paneUid);
    if (!pane || this.stopping) return;
    const batch = this.newBatch();
    batch.add('pane_exited', { ...this.paneRef(pane), ...exit }, this.paneMeta(pane));
    this.removePane(pane, batch);
    batch.flush();
  }

  paneOutput(_shard: ShardHandle, paneUid: number, seq: number, bytes: Uint8Array): void {
    this.streams.output(paneUid, seq, bytes);
  }

  paneResized(_shard: ShardHandle, paneUid: number, seq: number, cols: number, rows: number): void {
    this.streams.resized(paneUid, seq, cols, rows);
  }

  matchChanged(_shard: ShardHandle, matcherId: number, change: WatchChange): void {
    this.watches.changed(matcherId, change);
  }

  /** docs/protocol.md §10: cache the new facts, mark the seen flag (§10.4), emit the events. */
  agentChanged(_shard: ShardHandle, paneUid: number, picture: AgentPicture): void {
    const pane = this.registry.paneByUid(paneUid);
    if (!pane || this.stopping) return;
    const { agent, state } = picture;
    const agentChanged = pane.agent !== agent;
    const stateChanged = pane.agentState !== state;
    if (state === 'idle' && stateChanged && this.registry.activeWorkspace !== pane.workspace) pane.seen = false;
    pane.agent = agent;
    if (stateChanged) pane.agentStateSince = Date.now();
    pane.agentState = state;
    pane.agentSource = picture.source;
    pane.agentMessage = picture.message;
    pane.agentSession = picture.session;
    const ref = this.paneRef(pane);
    const meta = this.paneMeta(pane);
    if (agentChanged) {
      this.events.publish({ event: 'pane_agent_detected', data: lifecycleData('pane_agent_detected', agent ? { ...ref, agent } : ref) }, meta);
    }
    if (stateChanged) {
      this.events.publish({ event: 'pane.agent_state_changed', data: { ...ref, state, ...(agent ? { agent } : {}) } }, meta);
    }
  }

  commandFinished(_shard: ShardHandle, paneUid: number, exitCode: number): void {
    const pane = this.registry.paneByUid(paneUid);
    if (!pane || this.stopping) return;
    pane.lastExitCode = exitCode;
    this.events.publish({ event: 'pane.command_finished', data: { ...this.paneRef(pane), exit_code: exitCode } }, this.paneMeta(pane));
  }

  notification(_shard: ShardHandle, paneUid: number, notification: PaneNotification): void {
    const pane = this.registry.paneByUid(paneUid);
    if (!pane || this.stopping) return;
    const { notification: kind, title, body } = notification;
    const data = { ...this.paneRef(pane), kind, ...(title === undefined ? {} : { title }), ...(body === undefined ? {} : { body }) };
    this.events.publish({ event: 'pane.notification', data }, this.paneMeta(pane));
  }

  died(shard: ShardHandle, reason: string): void {
    if (this.stopping) return;
    console.error(`herdr: ${reason}; its panes are reported exited and a fresh shard takes new work`);
    const batch = this.newBatch();
    for (const workspace of this.registry.workspaces.filter((w) => w.shardId === shard.id)) {
      for (const pane of [...workspace.panes]) {
        this.streams.exited(pane.uid, {});
        batch.add('pane_exited', this.paneRef(pane), this.paneMeta(pane));
        this.removePane(pane, batch);
      }
    }
    batch.flush();
    this.shards.replace(shard, reason);
  }

  // helpers

  /** Starts a pane's process; a failure the checks could not foresee (fd limit, …) keeps its method's code. */
  private spawn(shard: ShardHandle, code: 'workspace_create_failed' | 'pane_split_failed', params: SpawnParams) {
    return shard.spawn(params).catch((error: unknown) => {
      throw new ProtocolError(code, `cannot start the pane: ${error instanceof Error ? error.message : String(error)}`);
    });
  }

  private removePane(pane: PaneRecord, batch: EventBatch): void {
    const ref = this.paneRef(pane);
    const meta = this.paneMeta(pane);
    const focusBefore = this.registry.focusKey();
    const { workspaceClosed } = this.registry.removePane(pane);
    this.watches.paneGone(pane.uid);
    batch.add('pane_closed', ref, meta);
    if (workspaceClosed) batch.add('workspace_closed', { workspace_id: ref.workspace_id }, { workspaceStableId: meta.workspaceStableId });
    this.addFocusEvents(focusBefore, batch);
  }

  private addFocusEvents(focusBefore: string, batch: EventBatch): void {
    if (this.registry.focusKey() === focusBefore) return;
    const workspace = this.registry.activeWorkspace;
    if (!workspace) return;
    batch.add('workspace_focused', { workspace_id: String(workspace.position) }, { workspaceStableId: workspaceStableId(workspace.uid) });
    const pane = this.registry.paneByUid(workspace.focusedPaneUid);
    if (pane) batch.add('pane_focused', this.paneRef(pane), this.paneMeta(pane));
  }

  paneMeta(pane: PaneRecord): EventMeta {
    return {
      paneUid: pane.uid,
      paneStableId: paneStableId(pane.workspace.uid, pane.uid),
      workspaceStableId: workspaceStableId(pane.workspace.uid),
    };
  }

  paneRef(pane: PaneRecord): { pane_id: string; workspace_id: string } {
    const { pane_id, workspace_id } = this.registry.paneIds(pane);
    return { pane_id, workspace_id };
  }

  /** A shard said no about a pane: if the pane is really gone, say so in the caller's terms. */
  paneGone(pane: PaneRecord, error: unknown, code: 'pane_not_found' | 'pane_send_failed'): never {
    if (error instanceof ProtocolError && error.code === 'pane_not_found') {
      const id = this.registry.paneIds(pane).pane_id;
      throw new ProtocolError(code, code === 'pane_send_failed' ? `pane ${id} has exited` : `pane ${id} not found`);
    }
    throw error;
  }

  private checkedArgv(request: SpawnRequest, cwd: string, code: 'workspace_create_failed' | 'pane_split_failed'): string[] {
    const cwdProblem = directoryProblem(cwd);
    if (cwdProblem) throw new ProtocolError(code, cwdProblem);
    const argv = request.command ?? [this.options.shell];
    const program = argv[0] ?? '';
    const problem = programProblem(program, request.env?.PATH ?? process.env.PATH, cwd);
    if (problem) throw new ProtocolError(code, problem);
    return argv;
  }

  private paneSize(request: SpawnRequest): { cols: number; rows: number } {
    return { cols: request.cols ?? this.options.cols, rows: request.rows ?? this.options.rows };
  }

  private envIds(workspaceUid: number, paneUid: number) {
    return {
      socketPath: this.options.socketPath,
      workspaceStableId: workspaceStableId(workspaceUid),
      paneStableId: paneStableId(workspaceUid, paneUid),
    };
  }

  private panesOnShard(shardId: number): number {
    let count = 0;
    for (const workspace of this.registry.workspaces) if (workspace.shardId === shardId) count += workspace.panes.length;
    return count;
  }

  private refuseWhileStopping(): void {
    if (this.stopping) throw new ProtocolError('server_unavailable', 'the server is shutting down');
  }
}

function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return Math.round((user + system) / 1000);
}
