/**
 * A restored pane's old rows, read back from a snapshot: its full history
 * blocks from the block files they were written to, its last block and its
 * last screen from the session file. A block that cannot be read (its file
 * gone or damaged) is left out and counted, so the marker can say so; the
 * pane comes back either way.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import type { BlockRef, PaneRestore } from '../../protocol/thread.js';
import { type PackedRows, unpackRows } from './block-codec.js';

export interface RestoredRows {
  blocks: Array<{ packed: PackedRows; ref: BlockRef }>;
  firstRow: number;
  tail: PackedRows | undefined;
  screen: PackedRows | undefined;
  marker: string;
}

export function readRestoredRows(restore: PaneRestore, blocksDir: string | undefined): RestoredRows {
  const blocks: RestoredRows['blocks'] = [];
  let lost = 0;
  const files = new Map<string, number>();
  try {
    for (const ref of restore.history.blocks) {
      try {
        if (!blocksDir || ref.file.includes('/')) throw new Error('no block file');
        let fd = files.get(ref.file);
        if (fd === undefined) files.set(ref.file, (fd = openSync(join(blocksDir, ref.file), 'r')));
        const data = Buffer.alloc(ref.length);
        if (readSync(fd, data, 0, ref.length, ref.offset) !== ref.length) throw new Error('short block');
        blocks.push({ packed: unpackRows(data), ref });
      } catch {
        lost++;
      }
    }
  } finally {
    for (const fd of files.values()) closeSync(fd);
  }
  const unpack = (data: Uint8Array | undefined) => {
    try {
      return data ? unpackRows(data) : undefined;
    } catch {
      lost++;
      return undefined;
    }
  };
  const tail = unpack(restore.history.tail);
  const screen = unpack(restore.screen);
  // Rows of the first block already dropped only count while that block is the first one read.
  const firstRow = blocks.length > 0 && lost === 0 ? restore.history.firstRow : 0;
  const marker = lost === 0 ? restore.marker : `${restore.marker} (${lost} of the old history's blocks could not be read)`;
  return { blocks, firstRow, tail, screen, marker };
}
