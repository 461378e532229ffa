/**
 * Gathers a flooding pane's reads so its output is parsed in large pieces
 * (output-parser.ts lets most of a long run of plain lines skip the
 * emulator, and a PTY read is at most 4 KB). Output of a program that is not
 * flooding is parsed the moment it is read: a read shorter than a full one
 * means the program had nothing more to say yet.
 *
 * Flow control stays at the source: pending output is bounded, and when the
 * bound is reached it is parsed at once, inside the read callback, so the
 * shard reads nothing meanwhile and a flooding program blocks in write(2).
 */
import { type Clock, type Timer, realClock } from './clock.js';

/** A read this long means the PTY had more waiting (Linux hands a PTY's output over 4095 bytes at a time). */
export const FULL_READ_BYTES = 4095;
/** Pending output is parsed once it reaches this much (per pane). */
export const MAX_PENDING_BYTES = 64 * 1024;
/** A flooding program that falls quiet has its last output parsed this long after its last read. */
export const QUIET_GAP_MS = 10;
/** No output waits longer than this to be parsed, however steadily it arrives. */
export const MAX_WAIT_MS = 250;
/**
 * A quiet-gap check that runs this much later than asked found the shard busy
 * parsing, not polling, so the pane had no chance to be read: it is judged
 * again after the next poll instead.
 */
const LATE_MS = 2;

export class OutputCoalescer {
  private chunks: Uint8Array[] = [];
  private bytes = 0;
  private firstAt = 0;
  private lastAt = 0;
  private timer: Timer | undefined;
  private checkAt = 0;

  constructor(
    private readonly parse: (data: Uint8Array) => void,
    private readonly clock: Clock = realClock,
  ) {}

  /** Bytes read but not parsed yet. */
  get pending(): number {
    return this.bytes;
  }

  /** One PTY read. */
  push(chunk: Uint8Array): void {
    const now = this.clock.now();
    if (this.bytes === 0) this.firstAt = now;
    this.chunks.push(chunk);
    this.bytes += chunk.length;
    this.lastAt = now;
    if (chunk.length < FULL_READ_BYTES || this.bytes >= MAX_PENDING_BYTES || now - this.firstAt >= MAX_WAIT_MS) this.drain();
    else if (!this.timer) this.arm(QUIET_GAP_MS);
  }

  /** Parses what is pending now (before the pane is read or resized, and when its program exits). */
  drain(): void {
    this.timer?.cancel();
    this.timer = undefined;
    if (this.bytes === 0) return;
    const data = this.chunks.length === 1 ? (this.chunks[0] as Uint8Array) : Buffer.concat(this.chunks, this.bytes);
    this.chunks = [];
    this.bytes = 0;
    this.parse(data);
  }

  dispose(): void {
    this.timer?.cancel();
    this.timer = undefined;
    this.chunks = [];
    this.bytes = 0;
  }

  private arm(ms: number): void {
    this.checkAt = this.clock.now() + ms;
    this.timer = this.clock.after(ms, () => {
      this.timer = undefined;
      const now = this.clock.now();
      const quiet = now - this.lastAt;
      if (now - this.firstAt >= MAX_WAIT_MS) this.drain();
      else if (now - this.checkAt > LATE_MS) this.arm(1);
      else if (quiet >= QUIET_GAP_MS) this.drain();
      else this.arm(QUIET_GAP_MS - quiet);
    });
  }
}
