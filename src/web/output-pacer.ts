/**
 * The pacing of a page's pane output: what its streams read is gathered and
 * sent once per tick (`--fps`, 10 a second by default) as one binary message
 * for all of them, so twenty printing tiles cost the page ten messages a
 * second, not hundreds. A `live` stream (the pane opened large, for typing)
 * is sent as it comes. Before a stream's notice (resize, resync, exit) its
 * gathered output goes out, so the page sees them in order.
 *
 * A page that does not keep up is not buffered for without end: past a bound
 * `drained()` holds the streams back until it has taken what was sent (and
 * the server's own rule for slow readers takes over: it drops output and
 * later sends `pane.resync` with the screen).
 */
import { OUTPUT_RECORD_HEADER_BYTES } from './wire.js';

/** Output gathered for one tick past which streams wait for the next. */
const MAX_PENDING_BYTES = 4 << 20;
/** Bytes sent to the page and not yet taken, past which nothing more is sent. */
const MAX_UNSENT_BYTES = 4 << 20;

export interface PacerSink {
  sendBinary(frame: Buffer): void;
  /** Bytes sent and not yet taken by the page. */
  readonly unsent: number;
}

export class OutputPacer {
  private readonly pending = new Map<number, Buffer[]>();
  private pendingBytes = 0;
  private timer: NodeJS.Timeout | undefined;
  private lastFlush = -Infinity;
  private waiters: Array<() => void> = [];
  private closed = false;

  constructor(
    private readonly sink: PacerSink,
    private readonly tickMs: number,
  ) {}

  add(streamId: number, bytes: Buffer, live: boolean): void {
    if (this.closed) return;
    if (live) return this.sink.sendBinary(frameOf([[streamId, [bytes]]], bytes.length));
    const chunks = this.pending.get(streamId);
    if (chunks) chunks.push(bytes);
    else this.pending.set(streamId, [bytes]);
    this.pendingBytes += bytes.length;
    this.schedule();
  }

  /** One stream's gathered output, sent now (before its notice). */
  flushStream(streamId: number): void {
    const chunks = this.pending.get(streamId);
    if (!chunks) return;
    this.pending.delete(streamId);
    const length = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
    this.pendingBytes -= length;
    this.sink.sendBinary(frameOf([[streamId, chunks]], length));
  }

  /** A stream closed: what it gathered is dropped. */
  forget(streamId: number): void {
    const chunks = this.pending.get(streamId);
    if (!chunks) return;
    this.pending.delete(streamId);
    for (const chunk of chunks) this.pendingBytes -= chunk.length;
  }

  /** Whether a stream should wait before reading more. */
  get full(): boolean {
    return this.pendingBytes > MAX_PENDING_BYTES || this.sink.unsent > MAX_UNSENT_BYTES;
  }

  /** Resolves once the next tick sent what was gathered and the page took enough (or at close). */
  drained(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.schedule();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    this.pending.clear();
    this.pendingBytes = 0;
    this.wake();
  }

  private schedule(): void {
    if (this.timer) return;
    // On a steady beat: a tick after the last one, not a tick after the first byte since.
    this.timer = setTimeout(() => this.tick(), Math.max(0, this.lastFlush + this.tickMs - performance.now()));
  }

  private tick(): void {
    this.timer = undefined;
    // A page that has not taken the last frames gets no more until it has.
    if (this.sink.unsent > MAX_UNSENT_BYTES) {
      this.timer = setTimeout(() => this.tick(), this.tickMs);
      return;
    }
    this.lastFlush = performance.now();
    if (this.pending.size > 0) {
      const records = [...this.pending.entries()];
      const length = this.pendingBytes;
      this.pending.clear();
      this.pendingBytes = 0;
      this.sink.sendBinary(frameOf(records, length));
    }
    this.wake();
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve();
  }
}

/** Records of [stream id, length, bytes], one after another (src/web/wire.ts). */
function frameOf(records: ReadonlyArray<readonly [number, readonly Buffer[]]>, bytes: number): Buffer {
  const frame = Buffer.allocUnsafe(records.length * OUTPUT_RECORD_HEADER_BYTES + bytes);
  let at = 0;
  for (const [streamId, chunks] of records) {
    const length = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
    frame.writeUInt32LE(streamId, at);
    frame.writeUInt32LE(length, at + 4);
    at += OUTPUT_RECORD_HEADER_BYTES;
    for (const chunk of chunks) at += chunk.copy(frame, at);
  }
  return frame;
}
