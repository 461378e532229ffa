/**
 * A pane's history: the physical rows that scrolled out of the emulator's
 * small scrollback, oldest first, up to `capacity` rows (the oldest dropped
 * beyond). Rows are kept as flat strings (~100 B a row instead of xterm's
 * ~1.6 KB) in a hot tail; every BLOCK_ROWS rows the tail is frozen into a
 * deflated block (~10–30× smaller again for typical output), so a full
 * 10 000-row history costs a few hundred KB. Reads decode a block at a time,
 * keeping the last one decoded.
 */
import { constants, deflateRawSync, inflateRawSync } from 'node:zlib';

export const BLOCK_ROWS = 256;

interface Rows {
  texts: string[];
  /** Rows with SGR escapes, by index; absent when the row has no attributes. */
  styled: Record<number, string>;
  /** Indices of rows that continue the row before (soft wrap), for logical-line reads to come. */
  wrapped: number[];
}

interface ColdBlock {
  rows: number;
  data: Uint8Array;
}

function emptyRows(): Rows {
  return { texts: [], styled: {}, wrapped: [] };
}

export class History {
  private blocks: ColdBlock[] = [];
  /** Rows of the first block already dropped by the capacity. */
  private firstBlockOffset = 0;
  private coldRows = 0;
  private hot: Rows = emptyRows();
  private droppedRows = 0;
  private decoded: { block: ColdBlock; rows: Rows } | undefined;

  constructor(readonly capacity: number) {}

  get length(): number {
    return this.coldRows - this.firstBlockOffset + this.hot.texts.length;
  }

  /** Rows pushed out by the capacity since the last clear. */
  get dropped(): number {
    return this.droppedRows;
  }

  /** Bytes held by frozen blocks (for stats and the bench). */
  get coldBytes(): number {
    return this.blocks.reduce((sum, block) => sum + block.data.length, 0);
  }

  push(text: string, styled: string | undefined, wrapped: boolean): void {
    const index = this.hot.texts.push(text) - 1;
    if (styled !== undefined) this.hot.styled[index] = styled;
    if (wrapped) this.hot.wrapped.push(index);
    if (this.hot.texts.length >= BLOCK_ROWS) this.freeze();
    while (this.length > this.capacity && this.dropOldest());
  }

  /** Row `index` (0 = oldest kept): its SGR form when asked and it has one, else plain text. */
  text(index: number, withStyle: boolean): string {
    const { rows, at } = this.locate(index);
    return (withStyle ? rows.styled[at] : undefined) ?? rows.texts[at] ?? '';
  }

  clear(): void {
    this.blocks = [];
    this.firstBlockOffset = 0;
    this.coldRows = 0;
    this.hot = emptyRows();
    this.droppedRows = 0;
    this.decoded = undefined;
  }

  private freeze(): void {
    const json = JSON.stringify(this.hot);
    // zlib's output is a view into its (16 KB+) work buffer: copy it out, or
    // every 2 KB block pins that whole allocation.
    const data = new Uint8Array(deflateRawSync(json, { level: constants.Z_BEST_SPEED }));
    this.blocks.push({ rows: this.hot.texts.length, data });
    this.coldRows += this.hot.texts.length;
    this.hot = emptyRows();
  }

  /** Drops the oldest cold row; false when there is none (a capacity under BLOCK_ROWS). */
  private dropOldest(): boolean {
    const first = this.blocks[0];
    if (!first) return false;
    this.firstBlockOffset++;
    this.droppedRows++;
    if (this.firstBlockOffset >= first.rows) {
      this.blocks.shift();
      this.coldRows -= first.rows;
      this.firstBlockOffset = 0;
      if (this.decoded?.block === first) this.decoded = undefined;
    }
    return true;
  }

  private locate(index: number): { rows: Rows; at: number } {
    let row = index + this.firstBlockOffset;
    if (row >= this.coldRows) return { rows: this.hot, at: row - this.coldRows };
    for (const block of this.blocks) {
      if (row < block.rows) {
        if (this.decoded?.block !== block) {
          const rows = JSON.parse(inflateRawSync(block.data).toString('utf8')) as Rows;
          this.decoded = { block, rows };
        }
        return { rows: this.decoded.rows, at: row };
      }
      row -= block.rows;
    }
    return { rows: this.hot, at: -1 };
  }
}
