/**
 * The last output of a program that exits while its shard is behind on
 * reading. For libuv, a hang-up on a stream whose last read was short means
 * the stream ended, and it does not read again; a PTY master hangs up when
 * the program exits, and every read of it is short (at most 4095 bytes). So
 * whatever the program wrote just before exiting and the shard had not read
 * yet was dropped, and node-pty closed the master. Measured with node-pty
 * alone, 5 ms per read: of 16 KiB written right before exit, 8–14 KiB
 * arrived, in 40 of 40 runs (ARCHITECTURE.md, "PTY output at exit").
 *
 * Here the stream's end is heard first, while the master is still open, and
 * what is left in it is read synchronously until the kernel says it is empty.
 */
import { readSync } from 'node:fs';
import type { IPty } from 'node-pty';
import { ptyInternals } from './pty-input.js';

const TAIL_READ_BYTES = 64 * 1024;

export function readTailAtEnd(pty: IPty, deliver: (bytes: Uint8Array) => void): void {
  const internals = ptyInternals(pty);
  internals._socket.prependListener('end', () => {
    const buffer = Buffer.allocUnsafe(TAIL_READ_BYTES);
    for (;;) {
      let read: number;
      try {
        read = readSync(internals._fd, buffer);
      } catch {
        return; // EIO: nothing left (or EAGAIN: the program's children still hold the terminal, and write on)
      }
      if (read <= 0) return;
      deliver(Buffer.from(buffer.subarray(0, read)));
    }
  });
}
