/** `server.stats` (EXT): what the server holds and what it costs, main thread and every shard. */
import type { ServerStats } from '../protocol/objects.js';
import { VERSION } from '../protocol/version.js';
import type { EventHub } from './event-hub.js';
import type { LoopDelayMonitor } from './loop-delay.js';
import type { OpenCounts } from './open-counts.js';
import type { PaneStreams } from './pane-streams.js';
import type { Snapshotter } from './persistence/snapshotter.js';
import type { Registry } from './registry.js';
import type { ShardPool } from './shard-pool.js';

export interface StatsSources {
  registry: Registry;
  shards: ShardPool;
  events: EventHub;
  streams: PaneStreams;
  open: OpenCounts;
  snapshots: Snapshotter | undefined;
  loopDelay: LoopDelayMonitor;
  /** performance.now() at start: uptime is monotonic. */
  startedAt: number;
}

const NO_SHARD_STATS = { panes: 0, bytesParsed: 0, matchers: 0, heapUsedBytes: 0, historyBytes: 0 };

export async function serverStats(from: StatsSources, connections: number): Promise<ServerStats> {
  const shards = await Promise.all(
    from.shards.all.map(async (shard) => {
      const stats = await shard.request('stats', {}).catch(() => NO_SHARD_STATS);
      return {
        shard_id: shard.id,
        workspaces: from.registry.workspaces.filter((w) => w.shardId === shard.id).length,
        panes: stats.panes,
        bytes_parsed: stats.bytesParsed,
        matchers: stats.matchers,
        heap_used_bytes: stats.heapUsedBytes,
        history_bytes: stats.historyBytes,
      };
    }),
  );
  const memory = process.memoryUsage();
  const last = from.shards.lastDeath;
  const snapshot = from.snapshots?.last;
  const { user, system } = process.cpuUsage();
  return {
    version: VERSION,
    uptime_ms: Math.round(performance.now() - from.startedAt),
    workspaces: from.registry.workspaces.length,
    panes: from.registry.paneCount,
    connections,
    subscriptions: from.open.get('subscriptions'),
    streams: from.streams.count,
    waits: from.open.get('waits'),
    matchers: shards.reduce((sum, s) => sum + s.matchers, 0),
    events_emitted: from.events.emitted,
    rss_bytes: memory.rss,
    heap_used_bytes: memory.heapUsed,
    loop_delay_p99_ms: from.loopDelay.p99Ms(),
    loop_delay_max_ms: from.loopDelay.maxMs(),
    cpu_ms: Math.round((user + system) / 1000),
    shards,
    shard_deaths: from.shards.deaths,
    shard_restarts_pending: from.shards.restartsPending,
    ...(last ? { last_shard_death: { shard_id: last.shardId, reason: last.reason, ms_ago: Math.round(performance.now() - last.at) } } : {}),
    ...(snapshot ? { last_snapshot: { bytes: snapshot.bytes, write_ms: Math.round(snapshot.ms * 10) / 10, ms_ago: Math.round(performance.now() - snapshot.at) } } : {}),
  };
}
