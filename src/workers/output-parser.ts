/**
 * A pane's output into its emulator and history. Writes are sized so that
 * none scrolls more rows than the emulator's scrollback holds
 * (write-sizing.ts), and the rows they scrolled off are copied after each
 * (scrollback-capture.ts).
 *
 * Long runs of plain lines (plain-lines.ts) mostly skip the emulator: of a
 * run of N lines printed on a plain screen, the first N − K would only pass
 * through the screen and the emulator's scrollback on their way to the
 * history, so they go to the history as they are, and only the last
 * K = (rows − 1) + SCROLLBACK_ROWS lines are parsed. The emulator then ends
 * exactly as if it had parsed them all: the same screen, and a scrollback
 * (which a resize may pull rows back from) holding the same newest rows.
 */
import { type Emulator, SCROLLBACK_ROWS, printsPlainLines } from './emulator.js';
import type { History } from './history.js';
import { PlainLineRun } from './plain-lines.js';
import type { ScrollbackCapture } from './scrollback-capture.js';
import { MAX_ROWS_PER_WRITE, WriteSizer } from './write-sizing.js';

/** A run must let at least this many lines skip the emulator to be worth a separate path. */
const MIN_SKIPPED_LINES = 32;
/** Line starts tried for a cut before a run is parsed in full (lines of two rows each never make an odd screen). */
const MAX_CUT_TRIES = 256;
/** Below this much unparsed output no run can be long enough, so nothing is cut at line ends for one. */
const MIN_RUN_BYTES = 16 * 1024;
const LF = 0x0a;

export class OutputParser {
  private readonly sizer = new WriteSizer();
  private readonly run = new PlainLineRun();
  /** The last byte parsed ended a line and no escape sequence is open: a run may start here. */
  private atLineStart = false;
  /** Offset into the current data before which no run can start (the last scan found none that long). */
  private noRunBefore = 0;
  /** Lines that skipped the emulator, for stats and tests. */
  skippedLines = 0;

  constructor(
    private readonly term: Emulator,
    private readonly writeSync: (data: Uint8Array) => void,
    private readonly history: History,
    private readonly capture: ScrollbackCapture,
    /** Off only in tests, which compare the two ways. */
    private readonly skipPlainRuns = true,
  ) {}

  /** Parses `data` (the next bytes of the pane's output) into the emulator and history. */
  feed(data: Uint8Array): void {
    this.noRunBefore = 0;
    const long = this.skipPlainRuns && data.length >= MIN_RUN_BYTES;
    for (let offset = 0; offset < data.length; ) {
      if (long && this.atLineStart && offset >= this.noRunBefore) {
        const end = this.scrollThrough(data, offset);
        if (end > offset) {
          offset = end;
          continue;
        }
      }
      // In long output, stop at the end of the current line so that a run may start after it.
      const lineEnd = long && !this.atLineStart && offset >= this.noRunBefore ? data.indexOf(LF, offset) + 1 : 0;
      offset = this.parse(lineEnd > offset ? data.subarray(0, lineEnd) : data, offset);
    }
  }

  /** Parses the next sized write of `data` from `offset`; returns the offset after it. */
  private parse(data: Uint8Array, offset: number): number {
    const dropped = this.sizer.oversizedString(data, offset);
    if (dropped > 0) return offset + dropped;
    const length = this.sizer.next(data, offset, MAX_ROWS_PER_WRITE, this.term.cols);
    this.writeSync(offset === 0 && length === data.length ? data : data.subarray(offset, offset + length));
    this.capture.collect();
    const end = offset + length;
    this.atLineStart = data[end - 1] === LF && this.sizer.inGround;
    return end;
  }

  private parseAll(data: Uint8Array, from: number, to: number): void {
    const part = data.subarray(0, to);
    for (let offset = from; offset < to; ) offset = this.parse(part, offset);
  }

  /**
   * Takes the run of plain lines at `offset` when it is long enough and the
   * screen is plain; returns the offset after it, or `offset` when it
   * parsed nothing.
   *
   * The run is cut at two line starts: `first` (the lines before it skip the
   * emulator) and `scrolled`, where the lines from `first` have made exactly
   * rows − 1 rows, which scroll the screen's old rows (above the blank cursor
   * row) into the history ahead of the skipped ones. From `first` on, at least
   * (rows − 1) + SCROLLBACK_ROWS rows are parsed: the emulator ends with the
   * screen and scrollback it would have had.
   */
  private scrollThrough(data: Uint8Array, offset: number): number {
    if (!printsPlainLines(this.term)) {
      // Perhaps after the next write (the cursor reaches the bottom, an attribute is reset).
      this.noRunBefore = offset + 1;
      return offset;
    }
    const run = this.run;
    const screenRows = this.term.rows - 1;
    const kept = screenRows + SCROLLBACK_ROWS;
    const count = run.scan(data, offset, this.term.cols);
    const cut = count > MIN_SKIPPED_LINES ? this.cutPoints(kept, screenRows) : undefined;
    if (!cut) {
      this.noRunBefore = Math.max(run.end, offset + 1);
      return offset;
    }
    this.parseAll(data, run.start(cut.first), run.start(cut.scrolled));
    const cols = this.term.cols;
    for (let line = 0; line < cut.first; line++) {
      const start = run.start(line);
      const end = run.textEnd(line);
      this.history.pushRange(data, start, Math.min(end, start + cols), false);
      for (let row = start + cols; row < end; row += cols) this.history.pushRange(data, row, Math.min(end, row + cols), true);
    }
    this.skippedLines += cut.first;
    this.parseAll(data, run.start(cut.scrolled), run.end);
    return run.end;
  }

  /**
   * The latest line `first` from which at least `kept` rows follow, after
   * which some line `scrolled` ends exactly `screenRows` rows (a long line's
   * rows cannot be split), and which REP's last printed character does not
   * skip (the last line with text is parsed). Undefined when no such cut
   * leaves MIN_SKIPPED_LINES lines to skip.
   */
  private cutPoints(kept: number, screenRows: number): { first: number; scrolled: number } | undefined {
    const run = this.run;
    const rowsBefore = run.rowsBefore;
    const total = run.rows;
    let first = run.count;
    while (first > 0 && total - (rowsBefore[first] as number) < kept) first--;
    if (run.lastWithText >= 0) first = Math.min(first, run.lastWithText);
    for (let tries = 0; first >= MIN_SKIPPED_LINES && tries < MAX_CUT_TRIES; first--, tries++) {
      const target = (rowsBefore[first] as number) + screenRows;
      let scrolled = first;
      while (scrolled < run.count && (rowsBefore[scrolled] as number) < target) scrolled++;
      if (rowsBefore[scrolled] === target) return { first, scrolled };
    }
    return undefined;
  }
}
