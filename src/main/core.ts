/**
 * The parts of a running server and how they are wired: the registry and
 * event hub, the shards and what they report, the operations requests call,
 * the session snapshots. Handlers are given the parts they use, never this
 * whole object.
 */
import type { ServerStats } from '../protocol/objects.js';
import { AgentManifests } from './agent-manifests.js';
import { EventHub, type LoggedEvent } from './event-hub.js';
import type { LoopDelayMonitor } from './loop-delay.js';
import { OutputActivity } from './output-activity.js';
import { HeldReports } from './held-reports.js';
import { OpenCounts } from './open-counts.js';
import { LayoutOperations } from './operations/layouts.js';
import { NavigationOperations } from './operations/navigation.js';
import { PaneMoves } from './operations/pane-move.js';
import { TabOperations } from './operations/tabs.js';
import { PaneOperations } from './operations/panes.js';
import { PaneSpawner } from './operations/pane-spawner.js';
import { WorkspaceOperations } from './operations/workspaces.js';
import { OutputMatchers } from './output-matchers.js';
import { ReportedMetadata } from './metadata.js';
import { hubSink, paneUpdated, workspaceMetadataUpdated } from './change-events.js';
import { PaneRemoval } from './pane-removal.js';
import { PaneShards } from './pane-shards.js';
import { PaneStreams } from './pane-streams.js';
import { type RestoreCounts, restoreSession } from './persistence/restore.js';
import type { SavedSession } from './persistence/session-file.js';
import { Snapshotter } from './persistence/snapshotter.js';
import type { SessionPaths } from './persistence/state-dir.js';
import { TurnBook } from './agents/turns.js';
import { RuleBook } from './rules/rule-book.js';
import { Registry } from './registry.js';
import { serverStats } from './server-stats.js';
import type { ShardHandle, ShardSettings } from './shard-handle.js';
import { ShardPool } from './shard-pool.js';
import { ShardReports } from './shard-reports.js';
import { Notifications } from './notifications.js';

export interface ServerCoreOptions {
  socketPath: string;
  /** The second socket, whose clients speak herdr's current protocol unless they say otherwise (docs/protocol.md §15.1); undefined: none. */
  currentSocketPath?: string | undefined;
  workers: number;
  cols: number;
  rows: number;
  /** The program of a pane without `command`. */
  shell: string;
  /** How shards are run and watched (stall deadline, heap limit, debug faults, block files). */
  shards: ShardSettings;
  /** Where the session is kept between runs (docs/persistence.md); undefined: nothing is kept. */
  persistence: { paths: SessionPaths; restore: boolean; resumeAgents: boolean } | undefined;
  /** Where the user's agent manifests are read from (docs/protocol.md §10.8); undefined: none are. */
  agentManifestDir?: string | undefined;
}

export class ServerCore {
  readonly registry = new Registry();
  readonly events = new EventHub();
  readonly matchers = new OutputMatchers();
  readonly open = new OpenCounts();
  /** notification.show's events and the last ones shown (docs/protocol.md §5.6). */
  readonly notifications = new Notifications();
  readonly streams = new PaneStreams(this.registry);
  /** What clients reported for display (pane.report_metadata, workspace.report_metadata). */
  readonly metadata = new ReportedMetadata({
    // A TTL ran out: no request to carry the event, so it goes out at once.
    pane: (pane) => paneUpdated(this.registry, pane, hubSink(this.events)),
    workspace: (workspace) => workspaceMetadataUpdated(this.registry, workspace, hubSink(this.events)),
  });
  /** Reports about panes `layout.apply` started but has not added yet. */
  readonly held = new HeldReports();
  /** Which panes are printing (shells and programs without an agent state show it). */
  readonly activity = new OutputActivity(this.registry, this.events);
  readonly spawner: PaneSpawner;
  readonly shards: PaneShards;
  readonly removal: PaneRemoval;
  readonly workspaces: WorkspaceOperations;
  readonly panes: PaneOperations;
  readonly tabs: TabOperations;
  readonly layouts: LayoutOperations;
  /** Focus, swaps, zoom, split ratios, the order of tabs and workspaces (docs/protocol.md §5.4). */
  readonly navigation: NavigationOperations;
  readonly paneMoves: PaneMoves;
  /** Prompts as turns: receipts, the queue of each agent (agents/turns.ts). */
  readonly turns: TurnBook;
  /** Event rules: what the server does by itself on events and schedules (rules/rule-book.ts). */
  readonly rules: RuleBook;
  /** Writes the session file as things change (undefined when nothing is kept). */
  readonly snapshots: Snapshotter | undefined;
  /** The user's agent manifests, given to every shard (agent-manifests.ts). */
  readonly agentManifests: AgentManifests;
  /** `server.restored`, when this server started from a snapshot: every `server.restored` subscriber gets it. */
  restoredEvent: LoggedEvent | undefined;
  private readonly pool: ShardPool;
  private readonly reports: ShardReports;
  private readonly startedAt = performance.now();

  constructor(
    options: ServerCoreOptions,
    private readonly loopDelay: LoopDelayMonitor,
  ) {
    this.spawner = new PaneSpawner(options);
    this.reports = new ShardReports({
      registry: this.registry,
      events: this.events,
      matchers: this.matchers,
      streams: this.streams,
      removal: () => this.removal,
      changed: () => this.changed(),
      replace: (shard: ShardHandle, reason: string) => this.pool.replace(shard, reason),
      held: this.held,
      activity: this.activity,
    });
    this.pool = new ShardPool(options.workers, this.reports, options.shards);
    this.agentManifests = new AgentManifests(options.agentManifestDir, this.pool);
    this.shards = new PaneShards(this.pool, this.registry);
    this.removal = new PaneRemoval(this.registry, this.matchers, this.streams, this.shards, this.metadata);
    this.workspaces = new WorkspaceOperations(this.registry, this.shards, this.spawner, this.removal);
    this.panes = new PaneOperations(this.registry, this.shards, this.spawner, this.removal);
    this.tabs = new TabOperations(this.registry, this.shards, this.spawner, this.removal);
    this.layouts = new LayoutOperations(this.registry, this.shards, this.spawner, this.held, this.removal);
    this.navigation = new NavigationOperations(this.registry);
    this.paneMoves = new PaneMoves(this.registry, this.metadata);
    this.turns = new TurnBook({ registry: this.registry, events: this.events, panes: this.panes });
    this.rules = new RuleBook({ registry: this.registry, events: this.events, matchers: this.matchers, shards: this.shards, panes: this.panes });
    if (options.persistence) {
      this.snapshots = new Snapshotter({ registry: this.registry, shards: () => this.pool.all, rules: () => this.rules.saved(), turns: this.turns }, options.persistence.paths);
      this.events.listen(() => this.changed());
    }
  }

  /** Something a session snapshot keeps changed (the server calls this after every request that changes state). */
  changed(): void {
    this.snapshots?.changed();
  }

  async restore(saved: SavedSession, options: { resumeAgents: boolean }): Promise<RestoreCounts> {
    const counts = await restoreSession(this, saved, options);
    this.rules.restore(saved);
    this.restoredEvent = this.events.publish({ event: 'server.restored', data: counts });
    return counts;
  }

  stats(connections: number): Promise<ServerStats> {
    const { registry, events, streams, open, snapshots, loopDelay, startedAt } = this;
    return serverStats({ registry, events, streams, open, snapshots, loopDelay, startedAt, shards: this.pool }, connections);
  }

  /** Writes the last snapshot, then ends every pane's processes and every shard. */
  async stop(): Promise<void> {
    // No new work from here; the last snapshot has the session as it stands.
    this.spawner.refuseFromNowOn();
    this.reports.stop();
    this.activity.stop();
    this.metadata.stop();
    this.rules.stop();
    await this.snapshots?.flush();
    await this.pool.stop();
  }
}
