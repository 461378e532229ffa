/**
 * Which shard holds a pane, and a shard's refusal in the caller's terms: a
 * request about a pane its shard no longer has means the pane is gone.
 */
import { ProtocolError } from '../protocol/errors.js';
import { errorNaming, paneStableId, workspaceStableId } from './ids.js';
import type { PaneRecord, Registry, WorkspaceRecord } from './registry.js';
import type { ShardHandle } from './shard-handle.js';
import type { ShardPool } from './shard-pool.js';

export class PaneShards {
  constructor(
    private readonly shards: ShardPool,
    private readonly registry: Registry,
  ) {}

  /**
   * The shard that runs a pane's terminal, or where a workspace's new panes start, if it is
   * still running. A pane's is its own: `pane.move` can take a pane into a workspace whose
   * other panes run elsewhere, so ask for the pane, never for `pane.workspace`.
   */
  find(target: PaneRecord | WorkspaceRecord): ShardHandle | undefined {
    const own = this.shards.get(target.shardId);
    if (own || 'stableNumber' in target) return own;
    // A workspace whose shard died keeps only panes moved in from elsewhere: its new ones start beside them.
    for (const pane of target.panes) {
      const shard = this.shards.get(pane.shardId);
      if (shard) return shard;
    }
    return undefined;
  }

  /** As `find`, or `internal_error` when that shard is gone. */
  of(target: PaneRecord | WorkspaceRecord): ShardHandle {
    const shard = this.find(target);
    if (shard) return shard;
    const what = 'stableNumber' in target ? `pane ${paneStableId(target.workspace.uid, target.stableNumber)}` : `workspace ${workspaceStableId(target.uid)}`;
    throw new ProtocolError('internal_error', `shard ${target.shardId} of ${what} is gone`);
  }

  /** Every live shard. */
  all(): ShardHandle[] {
    return this.shards.all;
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
    for (const workspace of this.registry.workspaces) for (const pane of workspace.panes) if (pane.shardId === shardId) count++;
    return count;
  }
}
