/**
 * One `pane.stream` of a page's: its ack and notices as JSON, its output as
 * binary frames, paced. A tile's output is gathered and sent once per tick
 * (`--fps`, 10 a second by default), so a pane printing a thousand lines a
 * second costs the page ten frames, not a thousand messages. The pane opened
 * large is `live`: sent as it comes, for typing.
 *
 * A page that does not keep up is not buffered for without end: past a bound
 * the stream stops being read, and the server's own rule for slow readers
 * takes over (it drops output and later sends `pane.resync` with the screen,
 * which goes to the page like any notice).
 */
import type { Dialer } from '../client/transport.js';
import { PaneOutputStream } from '../client/pane-output-stream.js';
import { apiErrorOf } from './api-error.js';
import { OUTPUT_HEADER_BYTES, type ServerMessage } from './wire.js';

/** Output held for one tick before the stream waits for the next. */
const MAX_PENDING_BYTES = 1 << 20;
/** Bytes sent to the page and not yet taken, past which streams wait. */
const MAX_UNSENT_BYTES = 4 << 20;

export interface PageSink {
  send(message: ServerMessage): void;
  sendBinary(frame: Buffer): void;
  readonly unsent: number;
}

export interface TileStreamOptions {
  dialer: Dialer;
  pane: string;
  live: boolean;
  look: boolean;
  fps: number;
  /** The stream ended, for whatever reason: forget it. */
  onEnd: () => void;
}

export class TileStream {
  private stream: PaneOutputStream | undefined;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private timer: NodeJS.Timeout | undefined;
  private flushed: (() => void) | undefined;
  private closed = false;
  private readonly tickMs: number;

  constructor(
    readonly id: number,
    private readonly page: PageSink,
    private readonly options: TileStreamOptions,
  ) {
    this.tickMs = Math.round(1000 / options.fps);
  }

  start(): void {
    void this.run();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.timer);
    this.stream?.close();
    this.flushed?.();
  }

  private async run(): Promise<void> {
    const { dialer, pane, look } = this.options;
    let exited = false;
    try {
      this.stream = await PaneOutputStream.open(dialer, pane, { id: `web:${this.id}`, look });
      if (this.closed) return this.stream.close();
      this.notice({ event: 'stream_started', ...this.stream.started });
      for await (const line of this.stream) {
        if (this.closed) break;
        if (line.event === 'pane.output') {
          this.queue(Buffer.from(line.data.bytes, 'base64'));
          if (this.pendingBytes > MAX_PENDING_BYTES || this.page.unsent > MAX_UNSENT_BYTES) await this.nextTick();
          continue;
        }
        this.flush();
        this.notice(line);
        exited ||= line.event === 'pane.exited';
      }
      this.flush();
      if (!this.closed && !exited) this.notice({ event: 'stream_failed', error: { code: 'server_unreachable', message: 'the stream ended' } });
    } catch (error) {
      if (!this.closed) this.notice({ event: 'stream_failed', error: apiErrorOf(error) });
    } finally {
      this.close();
      this.options.onEnd();
    }
  }

  private notice(notice: Extract<ServerMessage, { t: 'stream' }>['notice']): void {
    this.page.send({ t: 'stream', id: this.id, notice });
  }

  private queue(bytes: Buffer): void {
    this.pending.push(bytes);
    this.pendingBytes += bytes.length;
    if (this.timer) return;
    this.timer = setTimeout(() => this.tick(), this.options.live ? 0 : this.tickMs);
  }

  private tick(): void {
    this.timer = undefined;
    // A page that has not taken the last frames gets no more until it has.
    if (this.page.unsent > MAX_UNSENT_BYTES) {
      this.timer = setTimeout(() => this.tick(), this.tickMs);
      return;
    }
    this.flush();
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pendingBytes > 0) {
      const frame = Buffer.allocUnsafe(OUTPUT_HEADER_BYTES + this.pendingBytes);
      frame.writeUInt32LE(this.id, 0);
      let at = OUTPUT_HEADER_BYTES;
      for (const chunk of this.pending) at += chunk.copy(frame, at);
      this.pending = [];
      this.pendingBytes = 0;
      this.page.sendBinary(frame);
    }
    const flushed = this.flushed;
    this.flushed = undefined;
    flushed?.();
  }

  /** Resolves at the next flush (or at close). */
  private nextTick(): Promise<void> {
    this.timer ??= setTimeout(() => this.tick(), this.tickMs);
    return new Promise((resolve) => (this.flushed = resolve));
  }
}
