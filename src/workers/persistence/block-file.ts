/**
 * A shard's history blocks on disk: one append-only file per shard (and per
 * roll), so a snapshot round costs one fsync a shard however many panes
 * filled blocks. A full block never changes, so it is written once; the
 * session file (main) names blocks by file, offset and length. When the file
 * holds much more than its live blocks, the shard rolls to a new one and
 * writes its live blocks there; main deletes files no snapshot names.
 */
import { closeSync, fsyncSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { BlockRef } from '../../protocol/thread.js';

/** Roll when the file is this much larger than what is live in it (and past the floor). */
const ROLL_RATIO = 3;
const ROLL_FLOOR_BYTES = 16 * 1024 * 1024;

export class BlockFile {
  private fd: number | undefined;
  private name = '';
  private size = 0;
  private rolls = 0;
  private unsynced = false;

  constructor(
    private readonly dir: string,
    private readonly prefix: string,
  ) {}

  /** The file appended to now (undefined before the first block). */
  get current(): string | undefined {
    return this.fd === undefined ? undefined : this.name;
  }

  /** Whether a snapshot round should move every live block to a fresh file (`live`: bytes still named). */
  shouldRoll(live: number): boolean {
    return this.size > ROLL_FLOOR_BYTES && this.size > live * ROLL_RATIO;
  }

  /** Starts a new file; blocks written before stay where they are until they are rewritten. */
  roll(): void {
    this.close();
  }

  append(data: Uint8Array): BlockRef {
    if (this.fd === undefined) {
      this.name = `${this.prefix}-${++this.rolls}.blocks`;
      this.fd = openSync(join(this.dir, this.name), 'a', 0o600);
      this.size = 0;
    }
    const offset = this.size;
    let written = 0;
    while (written < data.length) written += writeSync(this.fd, data, written, data.length - written);
    this.size += data.length;
    this.unsynced = true;
    return { file: this.name, offset, length: data.length };
  }

  /** On disk before the snapshot that names these blocks is. */
  sync(): void {
    if (this.fd !== undefined && this.unsynced) fsyncSync(this.fd);
    this.unsynced = false;
  }

  close(): void {
    if (this.fd === undefined) return;
    this.sync();
    closeSync(this.fd);
    this.fd = undefined;
  }
}
