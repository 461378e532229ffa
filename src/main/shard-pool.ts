/**
 * The shard workers. A new workspace goes to the shard with the fewest panes;
 * a shard that dies is replaced by a fresh one (ids are never reused, so late
 * messages of a dead shard cannot be mistaken for the new one's). Deaths in a
 * row are limited: past a few a minute, each replacement waits longer, so a
 * fault that kills every shard it meets cannot spin the server.
 */
import type { AgentManifestFile } from '../protocol/agent-manifest.js';
import { ProtocolError } from '../protocol/errors.js';
import type { AgentTableSummary } from '../protocol/thread.js';
import { type ShardListener, ShardHandle, type ShardSettings } from './shard-handle.js';

/** Deaths within this window count towards the restart backoff. */
const DEATH_WINDOW_MS = 60_000;
/** This many deaths in the window are replaced at once; each further one waits 1 s, 2 s, 4 s, … */
const FREE_RESTARTS = 3;
const MAX_RESTART_DELAY_MS = 60_000;

export interface ShardDeath {
  shardId: number;
  reason: string;
  /** performance.now() of the death: its age is monotonic. */
  at: number;
}

export class ShardPool {
  private readonly shards = new Map<number, ShardHandle>();
  private readonly restartTimers = new Set<NodeJS.Timeout>();
  private recentDeaths: number[] = [];
  private nextId = 1;
  private stopped = false;
  /** The user's agent manifests in use: a shard started later is given them (docs/protocol.md §10.8). */
  private agentManifests: AgentManifestFile[] = [];
  deaths = 0;
  lastDeath: ShardDeath | undefined;

  constructor(
    count: number,
    private readonly listener: ShardListener,
    private readonly settings: ShardSettings,
  ) {
    for (let i = 0; i < count; i++) this.spawn();
  }

  get all(): ShardHandle[] {
    return [...this.shards.values()];
  }

  /** Replacements waiting out the backoff. */
  get restartsPending(): number {
    return this.restartTimers.size;
  }

  get(id: number): ShardHandle | undefined {
    return this.shards.get(id);
  }

  /** The live shard with the lowest load (`loadOf` counts its panes); undefined while every shard waits for its restart. */
  pick(loadOf: (shardId: number) => number): ShardHandle | undefined {
    let best: ShardHandle | undefined;
    let bestLoad = Infinity;
    for (const shard of this.shards.values()) {
      const load = loadOf(shard.id);
      if (shard.alive && load < bestLoad) {
        best = shard;
        bestLoad = load;
      }
    }
    return best;
  }

  /** Forgets a dead shard and starts its replacement, at once or after the backoff. */
  replace(dead: ShardHandle, reason: string): void {
    this.shards.delete(dead.id);
    // Monotonic: the backoff window must not stretch when the wall clock steps back.
    const now = performance.now();
    this.deaths++;
    this.lastDeath = { shardId: dead.id, reason, at: now };
    this.recentDeaths = [...this.recentDeaths.filter((at) => now - at < DEATH_WINDOW_MS), now];
    const excess = this.recentDeaths.length - FREE_RESTARTS;
    if (excess <= 0) {
      this.spawn();
      return;
    }
    const delay = Math.min(MAX_RESTART_DELAY_MS, 1000 * 2 ** (excess - 1));
    const timer = setTimeout(() => {
      this.restartTimers.delete(timer);
      if (!this.stopped) this.spawn();
    }, delay);
    timer.unref();
    this.restartTimers.add(timer);
  }

  /**
   * Every shard uses `files` from now on, or none does: the shards build the same tables from
   * the same files, so one refuses a set only when all do (the set stays as it was). Answers
   * the tables in use.
   */
  async setAgentManifests(files: AgentManifestFile[]): Promise<AgentTableSummary[]> {
    const live = this.all.filter((shard) => shard.alive);
    if (live.length === 0) throw new ProtocolError('internal_error', `no shard is running to take the agent manifests (${this.describeBackoff()})`);
    const before = this.agentManifests;
    // Taken before the answers, so a shard started meanwhile starts with them.
    this.agentManifests = files;
    const answers = await Promise.allSettled(live.map((shard) => shard.request('agentManifests', { files })));
    const taken = answers.find((answer) => answer.status === 'fulfilled');
    const refused = answers.find((answer): answer is PromiseRejectedResult => answer.status === 'rejected' && answer.reason instanceof ProtocolError && answer.reason.code === 'invalid_agent_manifest');
    if (refused || !taken) {
      this.agentManifests = before;
      throw (refused ?? answers.find((answer): answer is PromiseRejectedResult => answer.status === 'rejected'))?.reason;
    }
    return taken.value;
  }

  /** Why no shard is running, for the error that refuses a workspace meanwhile. */
  describeBackoff(): string {
    return `${this.recentDeaths.length} shard deaths in the last minute; ${this.restartsPending} restart(s) waiting out the backoff`;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.restartTimers) clearTimeout(timer);
    this.restartTimers.clear();
    await Promise.all(this.all.map((shard) => shard.stop()));
  }

  private spawn(): ShardHandle {
    const shard = new ShardHandle(this.nextId++, this.listener, this.settings, this.agentManifests);
    this.shards.set(shard.id, shard);
    return shard;
  }
}
