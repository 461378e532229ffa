/**
 * `pane.read` text (docs/protocol.md §6) from a pane's emulator and compact history.
 */
import type { IBuffer, IBufferCell, IBufferLine, Terminal } from '@xterm/headless';
import type { History } from './history.js';
import { RowEncoder, rowMayHaveStyle, styledBytes } from './row-text.js';

/** One per shard thread; reads are synchronous. */
const encoder = new RowEncoder();

export interface ReadText {
  text: string;
  truncated: boolean;
}

function rowText(line: IBufferLine, trimRight: boolean, withStyle: boolean, cell: IBufferCell): string {
  const styled = withStyle && rowMayHaveStyle(line) ? styledBytes(line, cell, encoder) : undefined;
  if (styled) return Buffer.from(styled.buffer, styled.byteOffset, styled.length).toString('utf8');
  return trimRight ? encoder.string(line) : line.translateToString(false);
}

function joinLines(lines: string[]): string {
  let end = lines.length;
  while (end > 0 && lines[end - 1] === '') end--;
  return end === 0 ? '' : `${lines.slice(0, end).join('\n')}\n`;
}

/** The screen, top to bottom, soft-wrapped rows joined into logical lines. */
export function readVisible(term: Terminal, withStyle: boolean, cell: IBufferCell): string {
  const buffer = term.buffer.active;
  const top = buffer.baseY;
  const lines: string[] = [];
  for (let y = 0; y < term.rows; y++) {
    const line = buffer.getLine(top + y);
    if (!line) break;
    const continues = y + 1 < term.rows && (buffer.getLine(top + y + 1)?.isWrapped ?? false);
    const text = rowText(line, !continues, withStyle, cell);
    if (line.isWrapped && lines.length > 0) lines[lines.length - 1] += text;
    else lines.push(text);
  }
  return joinLines(lines.map((l) => l.trimEnd()));
}

/**
 * The screen as `readVisible` gives it (plain), and the look of any character of it: the
 * background and inverse of its cell, for a menu whose selected button only its colours tell
 * (protocol/menu.ts `ButtonStyle`). Offsets are into the logical line, across its wrapped rows.
 */
export function visibleWithLooks(term: Terminal, cell: IBufferCell): { text: string; look: (line: number, offset: number) => string } {
  const buffer = term.buffer.active;
  const top = buffer.baseY;
  const rowsOf: number[][] = [];
  for (let y = 0; y < term.rows; y++) {
    const line = buffer.getLine(top + y);
    if (!line) break;
    if (line.isWrapped && rowsOf.length > 0) rowsOf[rowsOf.length - 1]?.push(top + y);
    else rowsOf.push([top + y]);
  }
  const look = (lineIndex: number, offset: number): string => {
    let at = 0;
    for (const row of rowsOf[lineIndex] ?? []) {
      const line = buffer.getLine(row);
      if (!line) break;
      for (let x = 0; x < line.length; x++) {
        const found = line.getCell(x, cell);
        if (!found || found.getWidth() === 0) continue;
        // translateToString writes a blank cell as one space.
        at += found.getChars().length || 1;
        if (at > offset) return `${found.getBgColorMode()}:${found.getBgColor()}:${found.isInverse()}`;
      }
    }
    return '';
  };
  return { text: readVisible(term, false, cell), look };
}

/**
 * The last `count` physical rows of history + screen, trailing blank rows
 * dropped first (every scrollback row is already in `history`). In the
 * alternate screen the rows are the screen's. With `unwrap` (`recent_unwrapped`)
 * the same rows, each row the terminal wrapped joined to the one before it: a
 * line longer than the width comes back whole, but for a first row that
 * continues a line above the window, which starts its own.
 */
export function readRecent(term: Terminal, history: History, count: number, withStyle: boolean, cell: IBufferCell, unwrap = false): ReadText {
  const alternate = term.buffer.active.type === 'alternate';
  const buffer: IBuffer = term.buffer.active;
  const historyRows = alternate ? 0 : history.length;
  const screenStart = buffer.baseY;
  const total = historyRows + (buffer.length - screenStart);
  const screenLine = (i: number) => buffer.getLine(screenStart + i - historyRows);

  // Screen rows are read once each: the blank check from the bottom keeps what it read.
  const plainScreen = new Map<number, string>();
  const plainAt = (i: number): string => {
    let text = plainScreen.get(i);
    if (text === undefined) {
      const line = screenLine(i);
      text = line ? encoder.string(line) : '';
      plainScreen.set(i, text);
    }
    return text;
  };
  const isBlank = (i: number): boolean => (i < historyRows ? history.isEmpty(i) : plainAt(i) === '');

  let last = total - 1;
  while (last >= 0 && isBlank(last)) last--;
  const first = Math.max(0, last + 1 - count);
  const truncated = first > 0 || (!alternate && history.dropped > 0 && last >= 0);

  const rows: string[] = [];
  for (let i = first; i <= last; i++) {
    let text: string;
    if (i < historyRows) text = history.text(i, withStyle);
    else if (!withStyle) text = plainAt(i);
    else {
      const line = screenLine(i);
      text = line ? rowText(line, true, true, cell) : '';
    }
    // A plain row keeps every cell written (only never-written cells are trimmed), so a
    // wrapped row joins the one before it exactly; an SGR form drops trailing plain spaces.
    const wrapped = unwrap && i > first && (i < historyRows ? history.isWrapped(i) : (screenLine(i)?.isWrapped ?? false));
    if (wrapped) rows[rows.length - 1] += text;
    else rows.push(text);
  }
  return { text: rows.length === 0 ? '' : `${rows.join('\n')}\n`, truncated };
}
