/**
 * `pane.selection.read` (docs/protocol.md §5.6): the text between two cells of a pane, as
 * a terminal copies a selection. Row 0 is the screen's top row and negative rows reach into
 * the history above it; columns are cells. Screen rows are sliced by xterm by cell; a history
 * row is kept as text (history.ts), so its cells are counted with the terminal's own
 * character widths (a wide character takes two, a combining mark none).
 */
import type { IBuffer } from '@xterm/headless';
import { type Emulator, cellWidthOf } from './emulator.js';
import type { History } from './history.js';

export interface Cell {
  row: number;
  col: number;
}

export interface Selection {
  text: string;
  /** The corners after ordering and clamping to the rows the pane has. */
  start: Cell;
  end: Cell;
}

/** No column is this far right; a slice to it runs to the row's end. */
const ROW_END = Number.MAX_SAFE_INTEGER;

/** `text`'s characters whose cells fall in columns [from, to] (a wide character in whole when either of its cells does). */
function sliceByCells(text: string, from: number, to: number, width: (codePoint: number) => number): string {
  let out = '';
  let x = 0;
  let lastTaken = false;
  for (const char of text) {
    const w = width(char.codePointAt(0) ?? 0);
    if (w === 0) {
      // A combining mark goes with the character before it.
      if (lastTaken) out += char;
      continue;
    }
    lastTaken = x + w - 1 >= from && x <= to;
    if (lastTaken) out += char;
    x += w;
    if (x > to) break;
  }
  return out;
}

export function readSelection(term: Emulator, history: History, from: Cell, to: Cell, block: boolean): Selection {
  const buffer: IBuffer = term.buffer.active;
  const historyRows = buffer.type === 'alternate' ? 0 : history.length;
  const clampRow = (row: number) => Math.min(Math.max(row, -historyRows), term.rows - 1);
  const width = cellWidthOf(term);

  let [start, end] = from.row < to.row || (from.row === to.row && from.col <= to.col) ? [from, to] : [to, from];
  if (block) [start, end] = [{ row: start.row, col: Math.min(from.col, to.col) }, { row: end.row, col: Math.max(from.col, to.col) }];
  start = { row: clampRow(start.row), col: start.col };
  end = { row: clampRow(end.row), col: end.col };

  const rowText = (row: number, fromCol: number, toCol: number): string => {
    if (row >= 0) return buffer.getLine(buffer.baseY + row)?.translateToString(true, fromCol, toCol === ROW_END ? undefined : toCol + 1) ?? '';
    return sliceByCells(history.text(historyRows + row, false), fromCol, toCol, width);
  };
  // Whether `row` continues the row above it (the terminal wrapped a long line there).
  const continues = (row: number): boolean =>
    row >= 0 ? (buffer.getLine(buffer.baseY + row)?.isWrapped ?? false) : history.isWrapped(historyRows + row);

  let text = '';
  for (let row = start.row; row <= end.row; row++) {
    const fromCol = block || row === start.row ? start.col : 0;
    const toCol = block || row === end.row ? end.col : ROW_END;
    const piece = rowText(row, fromCol, toCol);
    const joined = !block && row < end.row && continues(row + 1);
    // A row the next one continues keeps its spaces: they are part of the line.
    text += joined ? piece : piece.trimEnd();
    if (row < end.row && !joined) text += '\n';
  }
  return { text, start, end };
}
