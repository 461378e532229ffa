/**
 * The screen as plain text for the agent checks (the `detection` read), kept between reads.
 * A working agent redraws a spinner and a timer many times a second and every redraw is
 * looked at: encoding the whole screen each time, three times a look, was most of a working
 * fleet's shard CPU (ARCHITECTURE.md, "What a working agent costs"). Here a row is encoded
 * again only when its characters changed: rows no parse touched (the emulator's own record of
 * what a renderer would repaint) and in the same place (no scroll, buffer switch, reset or
 * resize since) are taken as they were; a touched row is compared with its last characters
 * first, since Ink-drawn CLIs rewrite their whole region every frame and diffing ones touch
 * the rows between their spinner and their footer. A screen whose text did not change reads
 * as the same string, which the rules then do not read again (detect.ts `ScreenMemo`). It
 * equals `readVisible(term, false, …)` at every revision (test/visible-text.test.ts replays
 * real agents' output and compares after every piece).
 */
import type { IBufferLine } from '@xterm/headless';
import { CONTENT_IS_COMBINED, type ChangedRows, type Emulator, type RowCells, onRowsChanged, rowCellsOf } from './emulator.js';
import { RowEncoder } from './row-text.js';

/** One per shard thread; reads are synchronous. */
const encoder = new RowEncoder();

interface KeptRow {
  /** The emulator's row object the text was read from. */
  cells: RowCells;
  /** Its cells' content words then (a row's plain text is theirs alone, but for combined characters). */
  content: Uint32Array;
  /** Its text right-trimmed (`translateToString(true)`). */
  text: string;
}

/** Whether `cells` hold the characters `content` kept, none of them combined (whose text is kept aside). */
function sameCharacters(cells: RowCells, content: Uint32Array): boolean {
  const length = cells.length;
  if (content.length !== length) return false;
  const data = cells._data;
  for (let x = 0; x < length; x++) {
    const word = data[x * 3] as number;
    if (word !== content[x] || (word & CONTENT_IS_COMBINED) !== 0) return false;
  }
  return true;
}

function contentOf(cells: RowCells, into: Uint32Array | undefined): Uint32Array {
  const length = cells.length;
  const content = into?.length === length ? into : new Uint32Array(length);
  const data = cells._data;
  for (let x = 0; x < length; x++) content[x] = data[x * 3] as number;
  return content;
}

export class VisibleText {
  private readonly rows: Array<KeptRow | undefined> = [];
  /** Screen rows changed since the last read (an empty range: start > end). */
  private changedStart = 0;
  private changedEnd = Number.MAX_SAFE_INTEGER;
  private readonly tracked: boolean;
  private last: { revision: number; text: string } | undefined;

  constructor(private readonly term: Emulator) {
    this.tracked = onRowsChanged(term, (rows) => this.changed(rows));
  }

  /** Everything is read again (a resize, which reflows rows in place). */
  invalidate(): void {
    this.changed(undefined);
    this.rows.length = 0;
    this.last = undefined;
  }

  /** The screen's text at `revision` (the pane's, which every parse and resize moves on). */
  read(revision: number): string {
    if (this.last?.revision === revision) return this.last.text;
    const text = this.build();
    this.last = { revision, text };
    return text;
  }

  private changed(rows: ChangedRows): void {
    if (rows === undefined) {
      this.changedStart = 0;
      this.changedEnd = Number.MAX_SAFE_INTEGER;
      return;
    }
    this.changedStart = Math.min(this.changedStart, rows.start);
    this.changedEnd = Math.max(this.changedEnd, rows.end);
  }

  /** Row `y`'s right-trimmed text, from the kept one when its characters did not change. */
  private rowText(y: number, line: IBufferLine): string {
    const cells = rowCellsOf(line);
    const kept = this.rows[y];
    if (cells === undefined) {
      this.rows[y] = undefined;
      return encoder.string(line);
    }
    if (kept?.cells === cells && this.tracked && (y < this.changedStart || y > this.changedEnd)) return kept.text;
    if (kept !== undefined && sameCharacters(cells, kept.content)) {
      kept.cells = cells;
      return kept.text;
    }
    const text = encoder.string(line);
    this.rows[y] = { cells, content: contentOf(cells, kept?.content), text };
    return text;
  }

  /** Soft-wrapped rows joined into logical lines, each right-trimmed; trailing blank lines dropped. */
  private build(): string {
    const buffer = this.term.buffer.active;
    const top = buffer.baseY;
    const rows = this.term.rows;
    this.rows.length = Math.min(this.rows.length, rows);
    const lines: string[] = [];
    let next = buffer.getLine(top);
    for (let y = 0; y < rows && next; y++) {
      const line = next;
      next = y + 1 < rows ? buffer.getLine(top + y + 1) : undefined;
      // A row the next one continues keeps its trailing blanks (they are inside the logical line).
      let text: string;
      if (next?.isWrapped) {
        text = line.translateToString(false);
        this.rows[y] = undefined;
      } else text = this.rowText(y, line);
      if (line.isWrapped && lines.length > 0) lines[lines.length - 1] += text;
      else lines.push(text);
    }
    this.changedStart = Number.MAX_SAFE_INTEGER;
    this.changedEnd = -1;
    let end = lines.length;
    while (end > 0 && lines[end - 1]?.trimEnd() === '') end--;
    let text = '';
    for (let i = 0; i < end; i++) text += `${(lines[i] as string).trimEnd()}\n`;
    // The same text as the same string: the rules' memo knows it by a pointer compare.
    const previous = this.last?.text;
    if (previous !== undefined && previous === text) return previous;
    return text;
  }
}
