/**
 * A pane's scroll position over its history (docs/protocol.md §5.4 `pane.scroll`): the
 * view a person would see when they scroll a terminal back. The rows that can be shown
 * are the history's (oldest first) followed by the screen's; the view is `rows` of them,
 * `offset` rows above the live bottom. At offset 0 the view follows the output. Scrolled
 * back, it stays on the rows it shows while new ones arrive below (its offset grows), as
 * a terminal's does, until the history drops those rows (then it sits at the top). The
 * alternate screen has no history: there the view is always the live screen.
 */
import type { IBufferCell, IBufferLine, Terminal } from '@xterm/headless';
import type { ScrollMove, ScrollPosition } from '../protocol/thread.js';
import type { History } from './history.js';
import { RowEncoder, rowMayHaveStyle, styledBytes } from './row-text.js';

export type { ScrollMove };
export type ScrollMetrics = ScrollPosition;

const encoder = new RowEncoder();

export class ScrollView {
  /**
   * The view's top row while scrolled back, counted from the first row the history ever
   * held (its dropped rows included), so that it stays on its rows as the history grows
   * and drops; undefined while the view follows the output.
   */
  private anchor: number | undefined;

  constructor(
    private readonly term: Terminal,
    private readonly history: History,
  ) {}

  private get alternate(): boolean {
    return this.term.buffer.active.type === 'alternate';
  }

  /** How far back the view can go: the history above the screen (none on the alternate screen). */
  private get maxOffset(): number {
    return this.alternate ? 0 : this.history.length;
  }

  /** The view's offset now, cut to what the history holds. */
  get offset(): number {
    if (this.anchor === undefined || this.alternate) return 0;
    const offset = this.history.dropped + this.history.length - this.anchor;
    // Its rows went back onto a taller screen: the view is the live one again, and follows it.
    if (offset <= 0) this.anchor = undefined;
    return Math.min(this.maxOffset, Math.max(0, offset));
  }

  /** The history was erased (`CSI 3 J`): nothing is left to be scrolled back to. */
  reset(): void {
    this.anchor = undefined;
  }

  metrics(): ScrollMetrics {
    return { offsetFromBottom: this.offset, maxOffsetFromBottom: this.maxOffset, viewportRows: this.term.rows };
  }

  /** Moves the view; whether its offset changed. */
  move(move: ScrollMove): boolean {
    const before = this.offset;
    let wanted: number;
    if ('to' in move) wanted = move.to === 'top' ? this.maxOffset : 0;
    else if ('offsetFromBottom' in move) wanted = move.offsetFromBottom;
    else {
      const rows = move.by === 'pages' ? move.count * Math.max(1, this.term.rows) : move.count;
      wanted = before + (move.direction === 'up' ? rows : -rows);
    }
    const offset = Math.min(this.maxOffset, Math.max(0, wanted));
    this.anchor = offset === 0 ? undefined : this.history.dropped + this.history.length - offset;
    return offset !== before;
  }

  /**
   * The view as `pane.read` `visible` gives the screen (screen-reader.ts `readVisible`):
   * top to bottom, soft-wrapped rows joined into logical lines, right-trimmed, trailing
   * blank lines dropped. Undefined while the view is the live screen.
   */
  read(withStyle: boolean, cell: IBufferCell): string | undefined {
    const offset = this.offset;
    if (offset === 0) return undefined;
    const buffer = this.term.buffer.normal;
    const historyRows = this.history.length;
    const first = historyRows - offset;
    const count = this.term.rows;
    const screenLine = (index: number): IBufferLine | undefined => buffer.getLine(buffer.baseY + index - historyRows);
    const wrapped = (index: number): boolean => (index < historyRows ? this.history.isWrapped(index) : (screenLine(index)?.isWrapped ?? false));
    const lines: string[] = [];
    for (let i = first; i < first + count; i++) {
      const continues = i + 1 < first + count && wrapped(i + 1);
      let text: string;
      if (i < historyRows) text = this.history.text(i, withStyle);
      else {
        const line = screenLine(i);
        text = line ? rowText(line, !continues, withStyle, cell) : '';
      }
      if (i > first && wrapped(i) && lines.length > 0) lines[lines.length - 1] += text;
      else lines.push(text);
    }
    const trimmed = lines.map((line) => line.trimEnd());
    let end = trimmed.length;
    while (end > 0 && trimmed[end - 1] === '') end--;
    return end === 0 ? '' : `${trimmed.slice(0, end).join('\n')}\n`;
  }
}

function rowText(line: IBufferLine, trimRight: boolean, withStyle: boolean, cell: IBufferCell): string {
  const styled = withStyle && rowMayHaveStyle(line) ? styledBytes(line, cell, encoder) : undefined;
  if (styled) return Buffer.from(styled.buffer, styled.byteOffset, styled.length).toString('utf8');
  return trimRight ? encoder.string(line) : line.translateToString(false);
}
