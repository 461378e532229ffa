/**
 * One `pane.stream` consumer (docs/protocol.md §9.5). Its lines are written in
 * the order the shard posted them; a consumer that lets more than
 * STREAM_OUTPUT_BACKLOG_BYTES pile up unread is not cut off: output meant for
 * it is dropped from there (the pane and its other consumers go on at full
 * speed), and once it has read what was written it gets the screen afresh
 * (`pane.resync`) and output again from exactly that point.
 *
 * Where "that point" is comes from the shard: every output chunk and resize
 * carries the pane's stream `seq`, every screen the last `seq` it includes.
 * Items that arrive while a screen is on its way are held, and those the
 * screen already includes are dropped when it comes.
 */
import type { PaneScreen } from '../protocol/thread.js';
import type { Connection } from './connection.js';

export const STREAM_OUTPUT_BACKLOG_BYTES = 1024 * 1024;

interface Held {
  seq: number;
  line: string;
}

export interface StreamOwner {
  /** The pane's screen now (its shard's `screen`). */
  screen(): Promise<PaneScreen>;
  /** The `pane.resync` line for a screen, with the pane's ids as they are now. */
  resyncLine(screen: PaneScreen): string;
  /** The stream ended (consumer gone, or the pane exited). */
  closed(stream: PaneStream): void;
}

export class PaneStream {
  /** `waiting`: a screen is on its way (items are held); `behind`: output is dropped until the consumer catches up. */
  private phase: 'waiting' | 'live' | 'behind' | 'closed' = 'waiting';
  private held: Held[] = [];
  private heldBytes = 0;
  /** Held items were dropped while waiting: the screen on its way is already stale. */
  private heldOverflowed = false;
  /** Whether the ack went out (before it, nothing may be written). */
  private started = false;
  /** The pane ended before the ack went out: its last line follows the ack. */
  private finalLine: string | undefined;

  constructor(
    readonly paneUid: number,
    private readonly connection: Connection,
    private readonly owner: StreamOwner,
  ) {
    if (connection.signal.aborted) queueMicrotask(() => this.close());
    else connection.signal.addEventListener('abort', () => this.close(), { once: true });
  }

  /** The ack with the first screen is written: held items after it go out, then live. */
  start(first: PaneScreen): void {
    if (this.phase === 'closed') return;
    this.goLive(first.seq);
  }

  /** One output chunk or resize, as a line ready to write. */
  deliver(seq: number, line: string): void {
    switch (this.phase) {
      case 'live':
        if (this.connection.unsentBytes > STREAM_OUTPUT_BACKLOG_BYTES) this.fallBehind();
        else this.connection.sendRaw(line);
        return;
      case 'waiting':
        if (this.heldBytes > STREAM_OUTPUT_BACKLOG_BYTES) {
          this.held = [];
          this.heldBytes = 0;
          this.heldOverflowed = true;
        }
        this.held.push({ seq, line });
        this.heldBytes += line.length;
        return;
      default:
        return;
    }
  }

  /** The pane is gone: its last line, then the connection closes. */
  end(line: string): void {
    if (this.phase === 'closed') return;
    if (!this.started) {
      this.finalLine = line;
      return;
    }
    this.connection.sendRaw(line);
    this.connection.end();
    this.close();
  }

  close(): void {
    if (this.phase === 'closed') return;
    this.phase = 'closed';
    this.held = [];
    this.owner.closed(this);
  }

  private goLive(screenSeq: number): void {
    this.started = true;
    const held = this.held;
    this.held = [];
    this.heldBytes = 0;
    this.phase = 'live';
    if (this.heldOverflowed) {
      // Output outran the screen: this consumer needs another (unless the pane is gone anyway).
      this.heldOverflowed = false;
      if (this.finalLine === undefined) return this.fallBehind();
    } else {
      for (const item of held) if (item.seq > screenSeq) this.deliver(item.seq, item.line);
    }
    if (this.finalLine !== undefined) this.end(this.finalLine);
  }

  private fallBehind(): void {
    this.phase = 'behind';
    this.connection.whenDrained(() => this.resync());
  }

  private resync(): void {
    if (this.phase !== 'behind') return;
    this.phase = 'waiting';
    this.owner.screen().then(
      (screen) => {
        if (this.phase !== 'waiting') return;
        if (this.heldOverflowed) {
          // Output outran the screen: take another.
          this.heldOverflowed = false;
          this.held = [];
          this.heldBytes = 0;
          this.phase = 'behind';
          return this.resync();
        }
        this.connection.sendRaw(this.owner.resyncLine(screen));
        this.goLive(screen.seq);
      },
      // The pane is gone: its exit is on its way and ends the stream.
      () => undefined,
    );
  }
}
