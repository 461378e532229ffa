/**
 * The main thread's end of one shard worker: typed requests with pending
 * replies, and the shard's unsolicited messages handed to a listener. A shard
 * that dies rejects its pending requests and is reported, never crashing main.
 */
import { Worker } from 'node:worker_threads';
import { ProtocolError } from '../protocol/errors.js';
import type { WatchChange } from './watches.js';
import type {
  AgentPicture,
  FromShard,
  PaneNotification,
  PaneUpdate,
  ShardInit,
  ShardRequestKind,
  ShardRequests,
  ToShard,
} from '../protocol/thread.js';

export interface ShardListener {
  paneUpdates(shard: ShardHandle, updates: PaneUpdate[]): void;
  paneExited(shard: ShardHandle, paneUid: number, exitCode: number, signal: number | undefined): void;
  matchChanged(shard: ShardHandle, matcherId: number, change: WatchChange): void;
  agentChanged(shard: ShardHandle, paneUid: number, picture: AgentPicture): void;
  commandFinished(shard: ShardHandle, paneUid: number, exitCode: number): void;
  notification(shard: ShardHandle, paneUid: number, notification: PaneNotification): void;
  died(shard: ShardHandle, reason: string): void;
}

interface Pending {
  resolve(result: unknown): void;
  reject(error: Error): void;
}

const SHARD_SCRIPT = new URL('../workers/shard.js', import.meta.url);
/**
 * A shard allocates short-lived text and buffers at parsing speed; V8's default
 * young generation (up to 32 MB) stays committed once grown. Measured with 20
 * full panes: 48 MB → 3.7 MB RSS a pane, 8 MB → 2.8 MB, with the same parse
 * throughput (~8.5 MB/s a flooding pane).
 */
const SHARD_YOUNG_GENERATION_MB = 8;

export class ShardHandle {
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextReqId = 1;
  private stopping = false;
  alive = true;

  constructor(
    readonly id: number,
    private readonly listener: ShardListener,
  ) {
    const init: ShardInit = { shardId: id, home: process.env.HOME ?? '' };
    this.worker = new Worker(SHARD_SCRIPT, {
      workerData: init,
      name: `shard-${id}`,
      resourceLimits: { maxYoungGenerationSizeMb: SHARD_YOUNG_GENERATION_MB },
    });
    this.worker.on('message', (message: FromShard) => this.receive(message));
    this.worker.on('error', (error) => this.die(`shard ${id} crashed: ${error.message}`));
    this.worker.on('exit', (code) => this.die(`shard ${id} exited with code ${code}`));
  }

  request<K extends ShardRequestKind>(kind: K, params: ShardRequests[K]['params']): Promise<ShardRequests[K]['result']> {
    if (!this.alive) return Promise.reject(new ProtocolError('internal_error', `shard ${this.id} is not running`));
    const reqId = this.nextReqId++;
    return new Promise((resolve, reject) => {
      this.pending.set(reqId, { resolve: resolve as (result: unknown) => void, reject });
      this.worker.postMessage({ kind, reqId, params } as ToShard);
    });
  }

  /** Ends every pane (waiting up to the pane kill grace), then the worker. */
  async stop(): Promise<void> {
    if (!this.alive) return;
    await this.request('shutdown', {}).catch(() => undefined);
    this.stopping = true;
    await this.worker.terminate();
  }

  private receive(message: FromShard): void {
    switch (message.kind) {
      case 'reply': {
        const pending = this.pending.get(message.reqId);
        if (!pending) return;
        this.pending.delete(message.reqId);
        if ('error' in message) pending.reject(new ProtocolError(message.error.code, message.error.message));
        else pending.resolve(message.result);
        return;
      }
      case 'paneUpdates':
        this.listener.paneUpdates(this, message.updates);
        return;
      case 'paneExited':
        this.listener.paneExited(this, message.paneUid, message.exitCode, message.signal);
        return;
      case 'agentChanged': {
        const { kind: _kind, paneUid, ...picture } = message;
        this.listener.agentChanged(this, paneUid, picture);
        return;
      }
      case 'commandFinished':
        this.listener.commandFinished(this, message.paneUid, message.exitCode);
        return;
      case 'notification': {
        const { kind: _kind, paneUid, ...notification } = message;
        this.listener.notification(this, paneUid, notification);
        return;
      }
      case 'matchChanged': {
        const { kind: _kind, matcherId, ...change } = message;
        this.listener.matchChanged(this, matcherId, change);
        return;
      }
      default: {
        const unknown: never = message;
        throw new Error(`unknown shard message ${JSON.stringify(unknown)}`);
      }
    }
  }

  private die(reason: string): void {
    if (!this.alive) return;
    this.alive = false;
    for (const pending of this.pending.values()) pending.reject(new ProtocolError('internal_error', reason));
    this.pending.clear();
    if (!this.stopping) this.listener.died(this, reason);
  }
}
