/**
 * What shards report back (they post only changes): facts into the
 * registry's cache, exits and deaths to the pane removal, matcher flips to
 * the output matchers, streamed output to the pane streams, and agent,
 * command and notification changes out as events.
 */
import { lifecycleData } from '../protocol/events.js';
import type { AgentPicture, MatchChange, PaneNotification, PaneUpdate, ScrollPosition } from '../protocol/thread.js';
import { agentStatus, publishStatus, stateLine } from './agents/agent-status.js';
import { takeOccupant } from './agents/occupants.js';
import { EventBatch, type EventHub } from './event-hub.js';
import { hubSink, paneUpdated } from './change-events.js';
import { paneMeta, paneRef } from './ids.js';
import type { OutputMatchers } from './output-matchers.js';
import type { PaneRemoval } from './pane-removal.js';
import type { HeldReports } from './held-reports.js';
import type { PaneStreams } from './pane-streams.js';
import type { OutputActivity } from './output-activity.js';
import type { PaneRecord, Registry } from './registry.js';
import type { ShardHandle, ShardListener } from './shard-handle.js';
import { scrollInfo } from './wire-views.js';

export interface ShardReportTargets {
  registry: Registry;
  events: EventHub;
  matchers: OutputMatchers;
  streams: PaneStreams;
  /** Read when a report needs it (the removal is built after the shards that report to it). */
  removal(): PaneRemoval;
  /** Something a session snapshot keeps changed. */
  changed(): void;
  /** A fresh shard takes the dead one's place for new work. */
  replace(shard: ShardHandle, reason: string): void;
  /** Reports about panes started but not yet in the registry wait there (layout.apply). */
  held: HeldReports;
  activity: OutputActivity;
}

export class ShardReports implements ShardListener {
  /** Once the server stops, exits and deaths are its own doing and not reported. */
  private stopping = false;

  constructor(private readonly to: ShardReportTargets) {}

  stop(): void {
    this.stopping = true;
  }

  paneUpdates(_shard: ShardHandle, updates: PaneUpdate[]): void {
    for (const update of updates) {
      if (this.to.held.deferred(update.paneUid, () => this.paneUpdates(_shard, [update]))) continue;
      const pane = this.to.registry.paneByUid(update.paneUid);
      if (!pane) continue;
      if (update.revision !== undefined) {
        pane.revision = Math.max(pane.revision, update.revision);
        // Its first new output: the pane is no longer just what was restored.
        if (update.revision > 0) pane.restored = false;
        this.to.activity.printed(pane);
        this.to.changed();
      }
      if (update.cwd !== undefined) pane.cwd = update.cwd;
      if (update.cwdLabel !== undefined) pane.cwdLabel = update.cwdLabel;
      if (update.foregroundCwd !== undefined) pane.foregroundCwd = update.foregroundCwd ?? undefined;
      if (update.title !== undefined && update.title !== pane.title) {
        pane.title = update.title;
        // herdr's pane.updated: the title pane_info shows changed.
        paneUpdated(this.to.registry, pane, hubSink(this.to.events));
      }
      if (update.scroll !== undefined) this.scrolled(pane, update.scroll);
    }
  }

  /**
   * herdr's `pane.scroll_changed` when the view moved without a request: a view scrolled back
   * stays on its rows as output comes (its offset grows), the history dropped them, or the
   * pane's height changed. History growing under a view at the bottom is not told: it
   * changes only `max_offset_from_bottom`, with every line a pane prints.
   */
  private scrolled(pane: PaneRecord, scroll: ScrollPosition): void {
    const before = pane.scroll;
    pane.scroll = scroll;
    if (this.stopping || (before.offsetFromBottom === scroll.offsetFromBottom && before.viewportRows === scroll.viewportRows)) return;
    this.to.events.publishEvent('pane.scroll_changed', { ...paneRef(pane), scroll: scrollInfo(pane) }, paneMeta(pane));
  }

  paneExited(_shard: ShardHandle, paneUid: number, exitCode: number, signal: number | undefined): void {
    if (this.to.held.deferred(paneUid, () => this.paneExited(_shard, paneUid, exitCode, signal))) return;
    const exit = { exit_code: exitCode, ...(signal === undefined ? {} : { signal }) };
    if (this.stopping) return void this.to.streams.exited(paneUid, exit);
    const batch = new EventBatch(this.to.events);
    this.to.removal().exited(paneUid, exit, batch);
    batch.flush();
  }

  paneOutput(_shard: ShardHandle, paneUid: number, seq: number, bytes: Uint8Array): void {
    this.to.streams.output(paneUid, seq, bytes);
  }

  paneResized(_shard: ShardHandle, paneUid: number, seq: number, cols: number, rows: number): void {
    this.to.streams.resized(paneUid, seq, cols, rows);
  }

  matchChanged(_shard: ShardHandle, matcherId: number, change: MatchChange): void {
    this.to.matchers.changed(matcherId, change);
  }

  /** docs/protocol.md §10: cache the new facts, mark the seen flag (§10.4), emit the events. */
  agentChanged(_shard: ShardHandle, paneUid: number, picture: AgentPicture, busyCount: number): void {
    if (this.to.held.deferred(paneUid, () => this.agentChanged(_shard, paneUid, picture, busyCount))) return;
    const pane = this.to.registry.paneByUid(paneUid);
    if (!pane || this.stopping) return;
    const { agent, state } = picture;
    const agentChanged = pane.occupant.agent !== agent;
    const stateChanged = pane.occupant.state !== state;
    if (state === 'idle' && stateChanged && this.to.registry.activeWorkspace !== pane.workspace) pane.seen = false;
    const statusBefore = agentStatus(pane);
    if (agentChanged) takeOccupant(pane, agent);
    pane.occupant.shardBusyCount = busyCount;
    if (stateChanged) {
      pane.occupant.stateSince = Date.now();
      pane.occupant.stateChangeSeq += 1;
      // A finished turn is `done` until someone looks (docs/protocol.md §13.2): idle after work, an unknown screen between them or not.
      pane.occupant.unread = state === 'idle' && pane.occupant.busy && !agentChanged;
    } else if (agentChanged) pane.occupant.unread = false;
    if (agentChanged || state === 'idle') pane.occupant.busy = false;
    if (state === 'working' || state === 'blocked') pane.occupant.busy = true;
    pane.occupant.agent = agent;
    pane.occupant.state = state;
    pane.occupant.source = picture.source;
    pane.occupant.message = picture.message;
    pane.occupant.session = picture.session;
    pane.occupant.sessionSource = picture.sessionSource;
    const ref = paneRef(pane);
    const meta = paneMeta(pane);
    if (agentChanged) {
      this.to.events.publish({ event: 'pane_agent_detected', data: lifecycleData('pane_agent_detected', agent ? { ...ref, agent } : ref) }, meta);
    }
    if (stateChanged) this.to.events.publish(stateLine(pane), meta);
    if (agentStatus(pane) !== statusBefore) publishStatus(this.to.events, pane);
  }

  commandFinished(_shard: ShardHandle, paneUid: number, exitCode: number): void {
    if (this.to.held.deferred(paneUid, () => this.commandFinished(_shard, paneUid, exitCode))) return;
    const pane = this.to.registry.paneByUid(paneUid);
    if (!pane || this.stopping) return;
    pane.lastExitCode = exitCode;
    this.to.events.publish({ event: 'pane.command_finished', data: { ...paneRef(pane), exit_code: exitCode } }, paneMeta(pane));
  }

  notification(_shard: ShardHandle, paneUid: number, notification: PaneNotification): void {
    if (this.to.held.deferred(paneUid, () => this.notification(_shard, paneUid, notification))) return;
    const pane = this.to.registry.paneByUid(paneUid);
    if (!pane || this.stopping) return;
    const { notification: kind, title, body } = notification;
    const data = { ...paneRef(pane), kind, ...(title === undefined ? {} : { title }), ...(body === undefined ? {} : { body }) };
    this.to.events.publish({ event: 'pane.notification', data }, paneMeta(pane));
  }

  died(shard: ShardHandle, reason: string): void {
    if (this.stopping) return;
    console.error(`herdr: ${reason}; its panes are reported exited and a fresh shard takes new work`);
    const batch = new EventBatch(this.to.events);
    // Each pane by its own shard: a moved pane may run elsewhere than its workspace's others (docs/protocol.md §5.4).
    const lost = this.to.registry.workspaces.flatMap((workspace) => workspace.panes.filter((pane) => pane.shardId === shard.id));
    for (const pane of lost) this.to.removal().exited(pane.uid, {}, batch);
    batch.flush();
    this.to.replace(shard, reason);
  }
}
