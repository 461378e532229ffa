/**
 * Which shard holds a pane, and a shard's refusal in the caller's terms: a
 * request about a pane its shard no longer has means the pane is gone.
 */
import { ProtocolError } from '../protocol/errors.js';
import { errorNaming, workspaceStableId } from './ids.js';
import type { PaneRecord, Registry, WorkspaceRecord } from './registry.js';
import type { ShardHandle } from './shard-handle.js';
import type { ShardPool } from './shard-pool.js';

export class PaneShards {
  constructor(
    private readonly shards: ShardPool,
    private readonly registry: Registry,
  ) {}

  /** The shard that holds a workspace's panes, if it is still running. */
  find(workspace: WorkspaceRecord): ShardHandle | undefined {
    return this.shards.get(workspace.shardId);
  }

  /** The shard that holds a workspace's panes. */
  of(workspace: WorkspaceRecord): ShardHandle {
    const shard = this.find(workspace);
    if (!shard) throw new ProtocolError('internal_error', `shard ${workspace.shardId} of workspace ${workspaceStableId(workspace.uid)} is gone`);
    return shard;
  }

  /** The least loaded live shard, for a new workspace. */
  pick(): ShardHandle | undefined {
    return this.shards.pick((shardId) => this.panesOn(shardId));
  }

  /** Why no shard is live, for the error that says so. */
  describeBackoff(): string {
    return this.shards.describeBackoff();
  }

  /** A shard said no about a pane: if the pane is really gone, say so as `code`. */
  refused(pane: PaneRecord, error: unknown, code: 'pane_not_found' | 'pane_send_failed'): never {
    if (error instanceof ProtocolError && error.code === 'pane_not_found') {
      throw errorNaming(code, (name) => (code === 'pane_send_failed' ? `pane ${name(pane)} has exited` : `pane ${name(pane)} not found`));
    }
    throw error;
  }

  private panesOn(shardId: number): number {
    let count = 0;
    for (const workspace of this.registry.workspaces) if (workspace.shardId === shardId) count += workspace.panes.length;
    return count;
  }
}
