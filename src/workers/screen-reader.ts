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
 * The last `count` physical rows of history + screen, trailing blank rows
 * dropped first (every scrollback row is already in `history`). In the
 * alternate screen the rows are the screen's.
 */
export function readRecent(term: Terminal, history: History, count: number, withStyle: boolean, cell: IBufferCell): ReadText {
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
    if (i < historyRows) rows.push(history.text(i, withStyle));
    else if (!withStyle) rows.push(plainAt(i));
    else {
      const line = screenLine(i);
      rows.push(line ? rowText(line, true, true, cell) : '');
    }
  }
  return { text: rows.length === 0 ? '' : `${rows.join('\n')}\n`, truncated };
}
