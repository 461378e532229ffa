/**
 * Moves rows from the emulator's scrollback into the pane's History.
 *
 * xterm keeps a small scrollback (emulator.ts) and trims its oldest row
 * silently when a new one scrolls in; there is no public trim event. So after
 * every write (and right before anything that would lose rows: entering the
 * alternate screen, a full reset) the rows that entered the scrollback since
 * the last look are copied out. A marker (public API) sits on the last row
 * copied; xterm moves it up as rows are trimmed, so the rows after it are the
 * new ones (emulator.ts places it even while the alternate screen is up). A write can scroll at most SCROLLBACK_ROWS − 1 rows
 * (write-sizing.ts), so the marker is never trimmed by output; if it is gone
 * (the program erased the scrollback, or a resize reflowed its row away) every
 * row in the scrollback is new.
 */
import type { IBufferCell, IMarker } from '@xterm/headless';
import { type Emulator, markNormalRow, normalRowCells } from './emulator.js';
import type { History } from './history.js';
import { RowEncoder, styledRow } from './row-text.js';

export class ScrollbackCapture {
  private marker: IMarker | undefined;
  private readonly encoder = new RowEncoder();
  private readonly styledEncoder = new RowEncoder();

  constructor(
    private readonly term: Emulator,
    private readonly history: History,
    private readonly cell: IBufferCell,
  ) {}

  /** Copies the rows that entered the normal screen's scrollback since the last call. */
  collect(): void {
    const buffer = this.term.buffer.normal;
    const base = buffer.baseY;
    const first = this.marker && !this.marker.isDisposed ? this.marker.line + 1 : 0;
    if (first >= base) return;
    for (let y = first; y < base; y++) this.copy(y);
    this.markLastRow();
  }

  /** The normal buffer was replaced (full reset): its rows are gone, and so is the marker's buffer. */
  forget(): void {
    this.marker?.dispose();
    this.marker = undefined;
  }

  /**
   * After a resize: when the screen grew, xterm pulled rows back from the
   * scrollback onto it, so the history gives up as many of its newest; when
   * it shrank, rows pushed into the scrollback are copied. A width change
   * reflows the scrollback: rows after the marker (if it survived) are copied,
   * history rows keep the width they had.
   */
  resized(baseBefore: number, widthChanged: boolean): void {
    const base = this.term.buffer.normal.baseY;
    if (!widthChanged && base < baseBefore) {
      this.history.dropNewest(baseBefore - base);
      this.markLastRow();
      return;
    }
    if (widthChanged && (!this.marker || this.marker.isDisposed)) {
      this.markLastRow();
      return;
    }
    this.collect();
  }

  /** Row `y` of the normal buffer into the history: its cells directly, the public API only for a styled row. */
  private copy(y: number): void {
    const cells = normalRowCells(this.term, y);
    if (cells) {
      const plain = this.encoder.encode(cells);
      let styled: Uint8Array | undefined;
      if (this.encoder.styled) {
        const fromCells = this.styledEncoder.encodeStyled(cells);
        styled = fromCells === null ? this.styledOf(y) : fromCells;
      }
      this.history.push(plain, styled, cells.isWrapped);
      return;
    }
    const line = this.term.buffer.normal.getLine(y);
    if (!line) return;
    const styled = this.styledOf(y);
    this.history.push(this.encoder.text(line.translateToString(true)), styled, line.isWrapped);
  }

  /** The row's SGR form as UTF-8, or undefined when it has no attributes after all. */
  private styledOf(y: number): Uint8Array | undefined {
    const line = this.term.buffer.normal.getLine(y);
    const styled = line ? styledRow(line, this.cell) : undefined;
    return styled === undefined ? undefined : this.styledEncoder.text(styled);
  }

  /** Puts the marker on the last scrollback row (none when the scrollback is empty). */
  private markLastRow(): void {
    this.marker?.dispose();
    const base = this.term.buffer.normal.baseY;
    this.marker = base === 0 ? undefined : markNormalRow(this.term, base - 1);
  }
}
