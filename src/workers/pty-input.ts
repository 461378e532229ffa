/**
 * Writing to a pane's PTY master, safely.
 *
 * node-pty writes input by fd number from a queue that retries on EAGAIN, on
 * the thread pool, and that outlives the fd: when the pane's program exits,
 * node-pty's read stream closes the master and its number is free for the
 * next open in the process (a client's socket on the main thread, another
 * pane's master in any shard) while queued input is still being written. The
 * client fuzz test caught a pane's input arriving on a client's socket that
 * way (ARCHITECTURE.md, "PTY input").
 *
 * Here every write is a synchronous write(2) on the non-blocking master, made
 * only while the read stream that owns the fd is open. The stream closes the
 * fd on this thread too, so it cannot close between the check and the write.
 * What the program does not take yet (EAGAIN) waits here, bounded, and is
 * retried on a short timer; it is dropped when the terminal closes.
 */
import { writeSync } from 'node:fs';
import type { IPty } from 'node-pty';
import { ProtocolError } from '../protocol/errors.js';

/** Input a program has not read yet, at most; more is refused (`pane_send_failed`). */
export const MAX_PENDING_INPUT_BYTES = 8 * 1024 * 1024;
const RETRY_MS = 10;

/** The parts of node-pty's UnixTerminal (1.2.0-beta.15) the pane relies on (here and pty-tail.ts); checked when a pane starts. */
export interface UnixTerminalInternals {
  /** The PTY master. */
  _fd: number;
  /** The read stream that owns (and closes) the master. */
  _socket: { destroyed: boolean; prependListener(event: 'end', listener: () => void): unknown };
}

export function ptyInternals(pty: IPty): UnixTerminalInternals {
  const internals = pty as unknown as Partial<UnixTerminalInternals>;
  if (typeof internals._fd !== 'number' || typeof internals._socket?.destroyed !== 'boolean' || typeof internals._socket.prependListener !== 'function') {
    throw new Error('node-pty is not the version herdr was written for (no _fd / _socket); see src/workers/pty-input.ts');
  }
  return internals as UnixTerminalInternals;
}

export class PtyInput {
  private readonly internals: UnixTerminalInternals;
  private readonly pending: Buffer[] = [];
  private pendingBytes = 0;
  private retry: NodeJS.Timeout | undefined;

  constructor(pty: IPty) {
    this.internals = ptyInternals(pty);
  }

  /** The PTY master's fd, for a look at the terminal's settings (valid while `open`). */
  get fd(): number {
    return this.internals._fd;
  }

  /** Whether the master is still open (the program may have exited and the terminal closed). */
  get open(): boolean {
    return !this.internals._socket.destroyed;
  }

  /** Queues `data` for the program and writes what it will take now. Throws when the terminal is closed or too much waits. */
  write(data: string | Uint8Array): void {
    if (!this.open) throw new ProtocolError('pane_send_failed', 'the pane\'s terminal is closed');
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : Buffer.from(data);
    if (bytes.length === 0) return;
    if (this.pendingBytes + bytes.length > MAX_PENDING_INPUT_BYTES) {
      throw new ProtocolError('pane_send_failed', `the pane is not reading its input (${this.pendingBytes} bytes still waiting)`);
    }
    this.pending.push(bytes);
    this.pendingBytes += bytes.length;
    if (!this.retry) this.flush();
  }

  /** Drops what waits (the pane ended). */
  dispose(): void {
    if (this.retry) clearTimeout(this.retry);
    this.retry = undefined;
    this.pending.length = 0;
    this.pendingBytes = 0;
  }

  private flush(): void {
    this.retry = undefined;
    while (this.pending.length > 0) {
      if (!this.open) return this.dispose();
      const head = this.pending[0] as Buffer;
      let written: number;
      try {
        written = writeSync(this.internals._fd, head);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EAGAIN') {
          this.retry = setTimeout(() => this.flush(), RETRY_MS);
          return;
        }
        return this.dispose(); // EIO and the like: the terminal is going away
      }
      this.pendingBytes -= written;
      if (written === head.length) this.pending.shift();
      else this.pending[0] = head.subarray(written);
    }
  }
}
