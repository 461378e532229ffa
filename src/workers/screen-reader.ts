/**
 * `pane.read` text (SPEC §6) from a pane's emulator and compact history.
 */
import type { IBuffer, IBufferCell, IBufferLine, Terminal } from '@xterm/headless';
import type { History } from './history.js';
import { rowMayHaveStyle, styledRow } from './row-text.js';

export interface ReadText {
  text: string;
  truncated: boolean;
}

function rowText(line: IBufferLine, trimRight: boolean, withStyle: boolean, cell: IBufferCell): string {
  const plain = line.translateToString(trimRight);
  return withStyle && rowMayHaveStyle(line) ? styledRow(line, plain, cell) : plain;
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
 * The last `count` physical rows of history + scrollback + screen, trailing
 * blank rows dropped first. `skipRows` emulator rows at the top are already in
 * `history` (moved there, their erase not yet parsed). In the alternate screen
 * the rows are the screen's.
 */
export function readRecent(
  term: Terminal,
  history: History,
  skipRows: number,
  count: number,
  withStyle: boolean,
  cell: IBufferCell,
): ReadText {
  const alternate = term.buffer.active.type === 'alternate';
  const buffer: IBuffer = term.buffer.active;
  const historyRows = alternate ? 0 : history.length;
  const emulatorStart = alternate ? buffer.baseY : skipRows;
  const total = historyRows + (buffer.length - emulatorStart);

  const plainAt = (i: number): string =>
    i < historyRows
      ? history.text(i, false)
      : (buffer.getLine(emulatorStart + i - historyRows)?.translateToString(true) ?? '');

  let last = total - 1;
  while (last >= 0 && plainAt(last) === '') last--;
  const first = Math.max(0, last + 1 - count);
  const truncated = first > 0 || (!alternate && history.dropped > 0 && last >= 0);

  const rows: string[] = [];
  for (let i = first; i <= last; i++) {
    if (!withStyle) rows.push(plainAt(i));
    else if (i < historyRows) rows.push(history.text(i, true));
    else {
      const line = buffer.getLine(emulatorStart + i - historyRows);
      rows.push(line ? rowText(line, true, true, cell) : '');
    }
  }
  return { text: rows.length === 0 ? '' : `${rows.join('\n')}\n`, truncated };
}
