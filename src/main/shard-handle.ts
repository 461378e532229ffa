/**
 * The main thread's end of one shard worker: typed requests with pending
 * replies and deadlines, a heartbeat, and the shard's unsolicited messages
 * handed to a listener. A shard that crashes, runs out of memory or stops
 * answering rejects its pending requests, has its panes' processes ended and
 * is reported, never crashing main.
 */
import { Worker } from 'node:worker_threads';
import type { AgentManifestFile } from '../protocol/agent-manifest.js';
import { ProtocolError } from '../protocol/errors.js';
import { QUIET_BEAT_MS, untilBeat } from '../protocol/quiet-beat.js';
import { PANE_MARK_ENV, endPaneProcesses } from '../os/pane-processes.js';
import type {
  AgentPicture,
  FromShard,
  MatchChange,
  PaneNotification,
  PaneStarted,
  PaneUpdate,
  ShardInit,
  ShardRequestKind,
  ShardRequests,
  SpawnParams,
  ToShard,
} from '../protocol/thread.js';

export interface ShardListener {
  paneUpdates(shard: ShardHandle, updates: PaneUpdate[]): void;
  paneExited(shard: ShardHandle, paneUid: number, exitCode: number, signal: number | undefined): void;
  matchChanged(shard: ShardHandle, matcherId: number, change: MatchChange): void;
  /** `busyCount`: the shard's count of the pane's state changes, this one included. */
  agentChanged(shard: ShardHandle, paneUid: number, picture: AgentPicture, busyCount: number): void;
  commandFinished(shard: ShardHandle, paneUid: number, exitCode: number): void;
  notification(shard: ShardHandle, paneUid: number, notification: PaneNotification): void;
  paneOutput(shard: ShardHandle, paneUid: number, seq: number, bytes: Uint8Array): void;
  paneResized(shard: ShardHandle, paneUid: number, seq: number, cols: number, rows: number): void;
  died(shard: ShardHandle, reason: string): void;
}

interface Pending {
  kind: ShardRequestKind;
  sentAt: number;
  resolve(result: unknown): void;
  reject(error: Error): void;
}

/** How a shard is run and watched (from the server's options). */
export interface ShardSettings {
  /** A shard that answers nothing, heartbeats included, for this long is dead; so is a request unanswered this long. */
  stallMs: number;
  /** The shard's V8 old-generation limit: past it that shard dies (and is replaced) before it takes the machine's memory. */
  heapMb: number;
  debugFaults: boolean;
  /** Shard threads' nice value, inherited by their pane processes (0: unchanged). */
  nice: number;
  /** How long a shard prints nothing before it seals its history and gives memory back. */
  reclaimAfterMs: number;
  /** Where shards keep their panes' history blocks; undefined when the server keeps no state. */
  blocksDir: string | undefined;
}

const SHARD_SCRIPT = new URL('../workers/shard.js', import.meta.url);
/**
 * A shard allocates short-lived text and buffers at parsing speed; V8's default
 * young generation (up to 32 MB) stays committed once grown. Measured with 20
 * full panes: 48 MB → 3.7 MB RSS a pane, 8 MB → 2.8 MB, with the same parse
 * throughput (~8.5 MB/s a flooding pane).
 */
const SHARD_YOUNG_GENERATION_MB = 8;
/** How often main checks on a shard with requests outstanding (their deadlines, stalls). */
const BUSY_CHECK_MS = 1000;

export class ShardHandle {
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  /** Every pane process this shard started and has not reported exited: main's to end if the shard cannot. */
  private readonly panePids = new Map<number, number>();
  /** Each live pane's mark (os/pane-processes.ts), to end its daemons if the shard dies. */
  private readonly paneMarks = new Map<number, string>();
  private checkTimer: NodeJS.Timeout | undefined;
  private heartbeatPending = false;
  private lastHeard = performance.now();
  private nextReqId = 1;
  private stopping = false;
  alive = true;

  constructor(
    readonly id: number,
    private readonly listener: ShardListener,
    private readonly settings: ShardSettings,
    /** The user's agent manifests in use when it starts (docs/protocol.md §10.8). */
    agentManifests: AgentManifestFile[] = [],
  ) {
    const init: ShardInit = { shardId: id, home: process.env.HOME ?? '', debugFaults: settings.debugFaults, blocksDir: settings.blocksDir, nice: settings.nice, reclaimAfterMs: settings.reclaimAfterMs, agentManifests };
    this.worker = new Worker(SHARD_SCRIPT, {
      workerData: init,
      name: `shard-${id}`,
      resourceLimits: { maxYoungGenerationSizeMb: SHARD_YOUNG_GENERATION_MB, maxOldGenerationSizeMb: settings.heapMb },
    });
    this.worker.on('message', (message: FromShard) => this.receive(message));
    this.worker.on('error', (error) => this.threadEnded(`shard ${id} crashed: ${error.message}`, true));
    this.worker.on('exit', (code) => this.threadEnded(`shard ${id} exited with code ${code}`, false));
    this.scheduleCheck();
  }

  request<K extends ShardRequestKind>(kind: K, params: ShardRequests[K]['params']): Promise<ShardRequests[K]['result']> {
    if (!this.alive) return Promise.reject(new ProtocolError('internal_error', `shard ${this.id} is not running`));
    const reqId = this.nextReqId++;
    return new Promise((resolve, reject) => {
      this.pending.set(reqId, { kind, sentAt: performance.now(), resolve: resolve as (result: unknown) => void, reject });
      this.worker.postMessage({ kind, reqId, params } as ToShard);
    });
  }

  /** Starts a pane's process; its pid is kept until the shard reports it exited. */
  async spawn(params: SpawnParams): Promise<PaneStarted> {
    const started = await this.request('spawn', params);
    this.panePids.set(params.paneUid, started.pid);
    this.paneMarks.set(params.paneUid, params.env[PANE_MARK_ENV] ?? '');
    return started;
  }

  /** Ends every pane (waiting up to the pane kill grace), then the worker. */
  async stop(): Promise<void> {
    clearTimeout(this.checkTimer);
    this.checkTimer = undefined;
    if (!this.alive) return;
    await this.request('shutdown', {}).catch(() => undefined);
    this.stopping = true;
    await this.worker.terminate();
  }

  /**
   * The next check: in a second while requests are outstanding (their deadlines); else when a
   * heartbeat is due, on the quiet beat the shard's own tick keeps (protocol/quiet-beat.ts), or
   * at the stall time while one is on its way. Not every second: an idle server's main thread
   * woke for nothing once a second per shard.
   */
  private scheduleCheck(): void {
    clearTimeout(this.checkTimer);
    this.checkTimer = undefined;
    if (!this.alive || this.stopping) return;
    const now = performance.now();
    const { stallMs } = this.settings;
    let delay: number;
    if ([...this.pending.values()].some((pending) => pending.kind !== 'heartbeat')) delay = BUSY_CHECK_MS;
    else if (this.heartbeatPending) delay = this.lastHeard + stallMs + 1 - now;
    // Due after a quarter of the stall time in silence, sent on the next beat: at the latest three quarters in, with a quarter left for the answer.
    else delay = untilBeat(now, this.lastHeard + stallMs / 4, Math.min(QUIET_BEAT_MS, stallMs / 2));
    this.checkTimer = setTimeout(() => this.check(), Math.max(0, delay));
    this.checkTimer.unref();
  }

  /** Stall detection and request deadlines; a heartbeat when the shard has been silent. */
  private check(): void {
    this.checkTimer = undefined;
    if (!this.alive || this.stopping) return;
    const now = performance.now();
    if (now - this.lastHeard > this.settings.stallMs) {
      this.die(`shard ${this.id} stopped answering (no heartbeat for ${Math.round(now - this.lastHeard)} ms)`);
      return;
    }
    for (const [reqId, pending] of this.pending) {
      // `shutdown` waits for the panes' exits, bounded by the kill grace on the shard's side; `submit` for its agent,
      // bounded by the prompt's stall window there (the heartbeat above still finds a stuck shard).
      if (pending.kind === 'shutdown' || pending.kind === 'submit' || now - pending.sentAt <= this.settings.stallMs) continue;
      this.pending.delete(reqId);
      pending.reject(new ProtocolError('internal_error', `shard ${this.id} did not answer ${pending.kind} within ${this.settings.stallMs} ms`));
    }
    // A shard that spoke lately is alive: a heartbeat is sent only after a quarter of the stall
    // time in silence (an idle shard was woken every second for it, ~1 ms of its CPU each time).
    if (!this.heartbeatPending && now - this.lastHeard >= this.settings.stallMs / 4) {
      this.heartbeatPending = true;
      this.request('heartbeat', {})
        .catch(() => undefined)
        .finally(() => {
          this.heartbeatPending = false;
          this.scheduleCheck();
        });
    }
    this.scheduleCheck();
  }

  private receive(message: FromShard): void {
    this.lastHeard = performance.now();
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
        this.panePids.delete(message.paneUid);
        this.paneMarks.delete(message.paneUid);
        this.listener.paneExited(this, message.paneUid, message.exitCode, message.signal);
        return;
      case 'agentChanged': {
        const { kind: _kind, paneUid, busyCount, ...picture } = message;
        this.listener.agentChanged(this, paneUid, picture, busyCount);
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
      case 'paneOutput':
        this.listener.paneOutput(this, message.paneUid, message.seq, message.bytes);
        return;
      case 'paneResized':
        this.listener.paneResized(this, message.paneUid, message.seq, message.cols, message.rows);
        return;
      case 'exiting':
        this.die(`shard ${this.id} exited with code ${message.code}`);
        return;
      case 'matchChanged': {
        const { kind: _kind, matcherId, ...change } = message;
        this.listener.matchChanged(this, matcherId, change);
        return;
      }
      default: {
        // A message listener must not throw on the main thread: say so and go on.
        const unknown: never = message;
        console.error(`herdr: shard ${this.id} sent an unknown message: ${JSON.stringify(unknown).slice(0, 200)}`);
      }
    }
  }

  /** The thread crashed or exited: the shard's death, or, for one given up on already, the late news of how it ended. */
  private threadEnded(reason: string, crashed: boolean): void {
    if (this.alive) this.die(reason);
    // An OOM is only told once the thread is gone, long after its heartbeat stopped.
    else if (crashed && !this.stopping) console.error(`herdr: ${reason} (already replaced)`);
  }

  /**
   * The shard is gone or given up on: its requests fail, its panes' processes
   * are ended from here, and a stuck thread is terminated (V8 interrupts even
   * a loop that never yields).
   */
  private die(reason: string): void {
    if (!this.alive) return;
    this.alive = false;
    clearTimeout(this.checkTimer);
    for (const pending of this.pending.values()) pending.reject(new ProtocolError('internal_error', reason));
    this.pending.clear();
    if (this.stopping) return;
    endPaneProcesses([...this.panePids.values()], [...this.paneMarks.values()]);
    this.panePids.clear();
    this.paneMarks.clear();
    void this.worker.terminate().catch(() => undefined);
    this.listener.died(this, reason);
  }
}
