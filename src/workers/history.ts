/**
 * A pane's history: the physical rows that scrolled off the emulator's
 * screen, oldest first, up to `capacity` rows (the oldest dropped beyond).
 *
 * Rows are stored as UTF-8 bytes in blocks of 32 KB (a 120-column row costs
 * its ~120 bytes, 10 000 rows ~1.3 MB, all outside the JS heap, so the
 * garbage collector never scans them). A row with attributes also keeps its
 * SGR form right after its plain text. Blocks that the capacity drops are
 * kept for reuse by the shard's next full block, so a flooding pane
 * allocates nothing in its steady state.
 *
 * Once the shard is quiet, full blocks are sealed: kept only in their packed,
 * compressed form (the one session snapshots store, so a snapshot then packs
 * nothing), under half the bytes for lines of words (brotli, quality 0). A
 * read that reaches a sealed block unpacks it and keeps it open until the
 * next quiet time.
 */

import type { BlockRef, HistoryState } from '../protocol/thread.js';
import { type PackedRows, packRows, unpackRows } from './persistence/block-codec.js';

const BLOCK_BYTES = 32 * 1024;
/** A block ends at this many rows even when its bytes are not used up (empty rows cost no bytes). */
const BLOCK_ROWS = 1024;
/** Rows a new block's row table holds; it doubles up to BLOCK_ROWS (120-column rows fill the 32 KB at ~270). */
const INITIAL_ROWS = 256;
/** Free blocks a shard keeps for reuse (2 MB). */
const SPARE_BLOCKS = 64;
const NO_BYTES = Buffer.alloc(0);

class Block {
  bytes: Buffer;
  used = 0;
  rows = 0;
  /** Per row: the end of its plain text, and the end of its SGR form (equal when it has none). */
  ends: Uint32Array = new Uint32Array(INITIAL_ROWS * 2);
  wrapped: Uint8Array = new Uint8Array(INITIAL_ROWS);
  /** Where this block was written for a snapshot; cleared when its rows change. */
  ref: BlockRef | undefined;
  /** It was written uncompressed (by a busy shard); a quiet round writes it again, compressed. */
  refUncompressed = false;
  /** Its rows packed and compressed, while they are unchanged; with `bytes` empty, the only copy (sealed). */
  private compressedForm: Buffer | undefined;
  private isOpen = true;

  get sealed(): boolean {
    return !this.isOpen;
  }

  constructor(size: number) {
    this.bytes = Buffer.allocUnsafeSlow(size);
  }

  /** A block holding packed rows (a snapshot's), with the ref it was read from. */
  static fromPacked(packed: PackedRows, ref: BlockRef | undefined): Block {
    const used = packed.rows === 0 ? 0 : (packed.ends[packed.rows * 2 - 1] ?? 0);
    const block = new Block(Math.max(BLOCK_BYTES, used));
    while (block.wrapped.length < packed.rows) block.growRowTable();
    block.bytes.set(packed.bytes.subarray(0, used));
    block.ends.set(packed.ends.subarray(0, packed.rows * 2));
    block.wrapped.set(packed.wrapped.subarray(0, packed.rows));
    block.rows = packed.rows;
    block.used = used;
    block.ref = ref;
    return block;
  }

  /**
   * Its rows packed, compressed unless `compress` is false. The compressed
   * form is kept until the rows change: a quiet shard's persist round and its
   * sealing each want it, and a block file's roll wants it again (each
   * compressed every block anew before: a plain flood with sessions on cost
   * twice the CPU per MB of one without).
   */
  packed(compress = true): Buffer {
    if (this.compressedForm) return this.compressedForm;
    const packed = packRows({
      rows: this.rows,
      bytes: this.bytes.subarray(0, this.used),
      ends: this.ends.subarray(0, this.rows * 2),
      wrapped: this.wrapped.subarray(0, this.rows),
    }, compress);
    if (compress) this.compressedForm = packed;
    return packed;
  }

  /** Whether its compressed form is at hand (packed() then costs nothing and stores that form). */
  get compressed(): boolean {
    return this.compressedForm !== undefined;
  }

  /** Keeps only the packed, compressed rows (packed once: an unchanged block keeps the form it had). */
  seal(): void {
    if (!this.isOpen || this.rows === 0) return;
    this.packed();
    this.bytes = NO_BYTES;
    this.ends = new Uint32Array(0);
    this.wrapped = new Uint8Array(0);
    this.isOpen = false;
  }

  /** Unpacks a sealed block's rows for reading or changing. */
  private open(): void {
    if (this.isOpen) return;
    const packed = unpackRows(this.compressedForm ?? NO_BYTES);
    this.bytes = Buffer.from(packed.bytes.buffer, packed.bytes.byteOffset, packed.bytes.length);
    this.ends = packed.ends;
    this.wrapped = packed.wrapped;
    this.isOpen = true;
  }

  /** Bytes held: the open rows and the packed form. */
  get heldBytes(): number {
    return this.bytes.length + (this.compressedForm?.length ?? 0);
  }

  start(row: number): number {
    this.open();
    return row === 0 ? 0 : (this.ends[row * 2 - 1] ?? 0);
  }

  isWrapped(row: number): boolean {
    this.open();
    return this.wrapped[row] === 1;
  }

  /** Forgets the newest row. */
  dropLastRow(): void {
    this.open();
    this.compressedForm = undefined;
    this.ref = undefined;
    this.rows--;
    this.used = this.start(this.rows);
  }

  /** Whether a row of `size` bytes fits (an empty block takes any row; it grows for a huge one). */
  fits(size: number): boolean {
    this.open();
    return this.rows < BLOCK_ROWS && (this.used + size <= this.bytes.length || this.rows === 0);
  }

  /** Doubles the row table (up to BLOCK_ROWS rows; `fits` stops a block there). */
  growRowTable(): void {
    const ends = new Uint32Array(this.ends.length * 2);
    ends.set(this.ends);
    this.ends = ends;
    const wrapped = new Uint8Array(this.wrapped.length * 2);
    wrapped.set(this.wrapped);
    this.wrapped = wrapped;
  }

  append(plain: Uint8Array, styled: Uint8Array | undefined, wrapped: boolean): void {
    this.roomForRow(plain.length + (styled?.length ?? 0));
    this.copyIn(plain, 0, plain.length);
    const plainEnd = this.used;
    if (styled) this.copyIn(styled, 0, styled.length);
    this.endRow(plainEnd, wrapped);
  }

  /** Appends a plain row whose text is `source[start, end)` (no view of it is made). */
  appendRange(source: Uint8Array, start: number, end: number, wrapped: boolean): void {
    this.roomForRow(end - start);
    this.copyIn(source, start, end);
    this.endRow(this.used, wrapped);
  }

  /** Room in the row table and for `size` bytes (an empty block grows for a huge row: `fits`). */
  private roomForRow(size: number): void {
    if (this.rows === this.wrapped.length) this.growRowTable();
    if (this.used + size > this.bytes.length) this.bytes = Buffer.allocUnsafeSlow(size);
  }

  /** Closes the row being appended: its plain text ends at `plainEnd`, its SGR form (if any) at the used bytes. */
  private endRow(plainEnd: number, wrapped: boolean): void {
    this.compressedForm = undefined;
    this.ends[this.rows * 2] = plainEnd;
    this.ends[this.rows * 2 + 1] = this.used;
    this.wrapped[this.rows] = wrapped ? 1 : 0;
    this.rows++;
  }

  /** Copies `source[start, end)` after the used bytes. */
  private copyIn(source: Uint8Array, start: number, end: number): void {
    this.bytes.set(start === 0 && end === source.length ? source : source.subarray(start, end), this.used);
    this.used += end - start;
  }

  text(row: number, withStyle: boolean): string {
    this.open();
    const start = this.start(row);
    const plainEnd = this.ends[row * 2] ?? start;
    const styledEnd = this.ends[row * 2 + 1] ?? plainEnd;
    if (withStyle && styledEnd > plainEnd) return this.bytes.toString('utf8', plainEnd, styledEnd);
    return this.bytes.toString('utf8', start, plainEnd);
  }

  isEmpty(row: number): boolean {
    this.open();
    return this.ends[row * 2] === this.start(row);
  }

  reset(): void {
    this.used = 0;
    this.rows = 0;
    this.ref = undefined;
    this.refUncompressed = false;
    this.compressedForm = undefined;
    this.isOpen = true;
    if (this.bytes.length !== BLOCK_BYTES) this.bytes = Buffer.allocUnsafeSlow(BLOCK_BYTES);
    if (this.wrapped.length === 0) {
      this.ends = new Uint32Array(INITIAL_ROWS * 2);
      this.wrapped = new Uint8Array(INITIAL_ROWS);
    }
  }
}

/** Blocks dropped by any history of this shard, for the next one that needs a block. */
const spareBlocks: Block[] = [];

function newBlock(): Block {
  const block = spareBlocks.pop();
  if (!block) return new Block(BLOCK_BYTES);
  block.reset();
  return block;
}

function retire(block: Block): void {
  if (spareBlocks.length < SPARE_BLOCKS) spareBlocks.push(block);
}

export class History {
  private readonly blocks: Block[] = [];
  /** Rows of the first block already dropped by the capacity. */
  private firstRow = 0;
  private rowCount = 0;
  private droppedRows = 0;

  constructor(readonly capacity: number) {}

  get length(): number {
    return this.rowCount;
  }

  /** Rows pushed out by the capacity since the last clear. */
  get dropped(): number {
    return this.droppedRows;
  }

  /** Bytes of row storage held (for stats and the bench). */
  get bytes(): number {
    return this.blocks.reduce((sum, block) => sum + block.heldBytes, 0);
  }

  /** Appends a row: its plain UTF-8 text, its SGR form when it has attributes, whether it continues the row before. */
  push(plain: Uint8Array, styled: Uint8Array | undefined, wrapped: boolean): void {
    this.blockFor(plain.length + (styled?.length ?? 0)).append(plain, styled, wrapped);
    this.rowAdded();
  }

  /** Appends a row without attributes whose text is `source[start, end)`. */
  pushRange(source: Uint8Array, start: number, end: number, wrapped: boolean): void {
    this.blockFor(end - start).appendRange(source, start, end, wrapped);
    this.rowAdded();
  }

  /** The block the next row of `size` bytes goes to. */
  private blockFor(size: number): Block {
    let last = this.blocks[this.blocks.length - 1];
    if (!last || !last.fits(size)) {
      last = newBlock();
      this.blocks.push(last);
    }
    return last;
  }

  private rowAdded(): void {
    this.rowCount++;
    if (this.rowCount > this.capacity) this.dropOldest();
  }

  /** Whether row `index` continues the row before it (the line wrapped there). */
  isWrapped(index: number): boolean {
    const at = this.locate(index);
    return at ? at.block.isWrapped(at.row) : false;
  }

  /** Row `index` (0 = oldest kept): its SGR form when asked and it has one, else its plain text. */
  text(index: number, withStyle: boolean): string {
    const at = this.locate(index);
    return at ? at.block.text(at.row, withStyle) : '';
  }

  isEmpty(index: number): boolean {
    const at = this.locate(index);
    return at ? at.block.isEmpty(at.row) : true;
  }

  /** Forgets the newest `count` rows (they went back onto the screen when it grew). */
  dropNewest(count: number): void {
    for (let i = 0; i < count && this.rowCount > 0; i++) {
      const last = this.blocks[this.blocks.length - 1];
      if (!last) break;
      last.dropLastRow();
      this.rowCount--;
      if (last.rows === (this.blocks.length === 1 ? this.firstRow : 0)) {
        this.blocks.pop();
        retire(last);
        if (this.blocks.length === 0) this.firstRow = 0;
      }
    }
  }

  /**
   * What a snapshot keeps: every block but the last stored by `store` (once;
   * again only with `rewrite`, when the shard moves to a fresh block file), the
   * last one packed inline, and how many rows of the first are dropped.
   * `compress` false (a busy shard) stores full blocks uncompressed; a later
   * round with it true stores those again, compressed. The last block is
   * always compressed: it travels to main and into the session file, whose
   * size main's thread pays for (uncompressed, a 100-pane flood made every
   * round's session file megabytes).
   */
  state(store: (packed: Buffer) => BlockRef, rewrite: boolean, compress = true): HistoryState {
    const blocks: BlockRef[] = [];
    for (let i = 0; i < this.blocks.length - 1; i++) {
      const block = this.blocks[i] as Block;
      if (!block.ref || rewrite || (block.refUncompressed && compress)) {
        block.refUncompressed = !compress && !block.compressed;
        block.ref = store(block.packed(compress));
      }
      blocks.push(block.ref);
    }
    const last = this.blocks[this.blocks.length - 1];
    return last ? { blocks, firstRow: this.firstRow, tail: last.packed() } : { blocks, firstRow: 0 };
  }

  /** Seals every full block (all but the last, which takes the next rows); how many it sealed. */
  seal(): number {
    let sealed = 0;
    for (let i = 0; i < this.blocks.length - 1; i++) {
      const block = this.blocks[i] as Block;
      if (!block.sealed) {
        block.seal();
        sealed++;
      }
    }
    return sealed;
  }

  get hasUncompressedBlocks(): boolean {
    return this.blocks.some((block) => block.refUncompressed);
  }

  /** Bytes of this history's blocks in the shard's block files (what rolling must keep). */
  get storedBytes(): number {
    let bytes = 0;
    for (const block of this.blocks) bytes += block.ref?.length ?? 0;
    return bytes;
  }

  /** Takes a snapshot's rows (full blocks with the refs they were read from, then the last); before anything else is pushed. */
  load(blocks: Array<{ packed: PackedRows; ref: BlockRef }>, firstRow: number, tail: PackedRows | undefined): void {
    this.clear();
    for (const { packed, ref } of blocks) if (packed.rows > 0) this.blocks.push(Block.fromPacked(packed, ref));
    if (tail && tail.rows > 0) this.blocks.push(Block.fromPacked(tail, undefined));
    const first = this.blocks[0];
    this.firstRow = first ? Math.min(firstRow, first.rows - 1) : 0;
    this.rowCount = this.blocks.reduce((sum, block) => sum + block.rows, 0) - this.firstRow;
    while (this.rowCount > this.capacity) this.dropOldest();
  }

  /** Appends packed rows one by one (a restored screen). */
  pushRows(rows: PackedRows): void {
    for (let row = 0; row < rows.rows; row++) {
      const start = row === 0 ? 0 : (rows.ends[row * 2 - 1] ?? 0);
      const plainEnd = rows.ends[row * 2] ?? start;
      const styledEnd = rows.ends[row * 2 + 1] ?? plainEnd;
      const styled = styledEnd > plainEnd ? rows.bytes.subarray(plainEnd, styledEnd) : undefined;
      this.push(rows.bytes.subarray(start, plainEnd), styled, rows.wrapped[row] === 1);
    }
  }

  clear(): void {
    for (const block of this.blocks.splice(0)) retire(block);
    this.firstRow = 0;
    this.rowCount = 0;
    this.droppedRows = 0;
  }

  private dropOldest(): void {
    const first = this.blocks[0];
    if (!first) return;
    this.firstRow++;
    this.rowCount--;
    this.droppedRows++;
    if (this.firstRow >= first.rows) {
      this.blocks.shift();
      retire(first);
      this.firstRow = 0;
    }
  }

  /** The block and row within it of row `index`; newest rows are the common case, so search from the end. */
  private locate(index: number): { block: Block; row: number } | undefined {
    if (index < 0 || index >= this.rowCount) return undefined;
    let remaining = this.rowCount - index; // rows from the newest end, 1 = newest
    for (let b = this.blocks.length - 1; b >= 0; b--) {
      const block = this.blocks[b] as Block;
      const kept = b === 0 ? block.rows - this.firstRow : block.rows;
      if (remaining <= kept) return { block, row: block.rows - remaining };
      remaining -= kept;
    }
    return undefined;
  }
}
