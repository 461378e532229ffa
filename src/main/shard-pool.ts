/**
 * The shard workers. A new workspace goes to the shard with the fewest panes;
 * a shard that dies is replaced by a fresh one (ids are never reused, so late
 * messages of a dead shard cannot be mistaken for the new one's).
 */
import { type ShardListener, ShardHandle } from './shard-handle.js';

export class ShardPool {
  private readonly shards = new Map<number, ShardHandle>();
  private nextId = 1;

  constructor(
    count: number,
    private readonly listener: ShardListener,
  ) {
    for (let i = 0; i < count; i++) this.spawn();
  }

  get all(): ShardHandle[] {
    return [...this.shards.values()];
  }

  get(id: number): ShardHandle | undefined {
    return this.shards.get(id);
  }

  /** The live shard with the lowest load (`loadOf` counts its panes). */
  pick(loadOf: (shardId: number) => number): ShardHandle {
    let best: ShardHandle | undefined;
    let bestLoad = Infinity;
    for (const shard of this.shards.values()) {
      const load = loadOf(shard.id);
      if (shard.alive && load < bestLoad) {
        best = shard;
        bestLoad = load;
      }
    }
    return best ?? this.spawn();
  }

  replace(dead: ShardHandle): void {
    this.shards.delete(dead.id);
    this.spawn();
  }

  async stop(): Promise<void> {
    await Promise.all(this.all.map((shard) => shard.stop()));
  }

  private spawn(): ShardHandle {
    const shard = new ShardHandle(this.nextId++, this.listener);
    this.shards.set(shard.id, shard);
    return shard;
  }
}
