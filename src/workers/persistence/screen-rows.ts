/** The rows on a pane's screen, packed like a history block, for a snapshot (trailing blank rows left out). */
import type { IBufferCell } from '@xterm/headless';
import { type Emulator, rowCellsOf } from '../emulator.js';
import { RowEncoder, styledBytes } from '../row-text.js';
import { packRows } from './block-codec.js';

/** One per shard thread; packing is synchronous. */
const encoder = new RowEncoder();

export function packScreen(term: Emulator, cell: IBufferCell): Buffer {
  const buffer = term.buffer.active;
  const plain: Buffer[] = [];
  const styled: Array<Buffer | undefined> = [];
  const wrapped: number[] = [];
  for (let y = 0; y < term.rows; y++) {
    const line = buffer.getLine(buffer.viewportY + y);
    if (!line) break;
    const cells = rowCellsOf(line);
    plain.push(cells ? Buffer.from(encoder.encode(cells)) : Buffer.from(line.translateToString(true), 'utf8'));
    const style = styledBytes(line, cell, encoder);
    styled.push(style === undefined ? undefined : Buffer.from(style));
    wrapped.push(line.isWrapped ? 1 : 0);
  }
  let rows = plain.length;
  while (rows > 0 && plain[rows - 1]?.length === 0 && styled[rows - 1] === undefined) rows--;
  const parts: Buffer[] = [];
  const ends = new Uint32Array(rows * 2);
  let at = 0;
  for (let row = 0; row < rows; row++) {
    const text = plain[row] as Buffer;
    parts.push(text);
    at += text.length;
    ends[row * 2] = at;
    const style = styled[row];
    if (style) {
      parts.push(style);
      at += style.length;
    }
    ends[row * 2 + 1] = at;
  }
  return packRows({ rows, bytes: Buffer.concat(parts), ends, wrapped: Uint8Array.from(wrapped.slice(0, rows)) });
}
