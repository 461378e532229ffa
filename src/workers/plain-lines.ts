/**
 * Runs of plain lines in a pane's output: printable ASCII, each ended by
 * CR LF (what `cat`, compilers, test runners and logs print most, after the
 * PTY turned LF into CR LF). Printed at the bottom of a plain screen
 * (emulator.ts `printsPlainLines`), such a line becomes exactly its bytes cut
 * into rows of the screen's width (one row when it fits, an empty one when it
 * is empty), every row after the first marked as continuing the one before;
 * each row scrolls the screen by one. So the lines of a long run that would
 * only pass through the screen can go to the history directly
 * (output-parser.ts).
 */

const CR = 0x0d;
const LF = 0x0a;

export class PlainLineRun {
  /** Offset of each line found, in order; the line's text ends 2 bytes (its CR LF) before the next start or `end`. */
  starts = new Int32Array(1024);
  /** Rows the lines before line i make (`rowsBefore[count]`: the run's rows). */
  rowsBefore = new Int32Array(1025);
  /** Lines found by the last scan. */
  count = 0;
  /** Offset just past the last line's CR LF: where the run stops (a byte that is not plain, or the data's end). */
  end = 0;
  /** Index of the last line with any text (-1 when every line was empty). */
  lastWithText = -1;

  /** Finds the run of plain lines that starts at `offset` on a screen `cols` wide; returns how many lines it holds. */
  scan(data: Uint8Array, offset: number, cols: number): number {
    const length = data.length;
    let count = 0;
    let rows = 0;
    let lastWithText = -1;
    let i = offset;
    this.end = offset;
    while (i < length) {
      const start = i;
      let byte = data[i] as number;
      while (byte >= 0x20 && byte < 0x7f && ++i < length) byte = data[i] as number;
      if (i + 1 >= length || byte !== CR || data[i + 1] !== LF) break;
      if (count === this.starts.length) this.grow();
      this.starts[count] = start;
      this.rowsBefore[count] = rows;
      rows += i === start ? 1 : Math.ceil((i - start) / cols);
      if (i > start) lastWithText = count;
      count++;
      i += 2;
      this.end = i;
    }
    this.rowsBefore[count] = rows;
    this.count = count;
    this.lastWithText = lastWithText;
    return count;
  }

  /** The rows the run makes. */
  get rows(): number {
    return this.rowsBefore[this.count] as number;
  }

  /** Offset of line `index` (`end` for `count`). */
  start(index: number): number {
    return index < this.count ? (this.starts[index] as number) : this.end;
  }

  /** Offset just past the text of line `index` (before its CR LF). */
  textEnd(index: number): number {
    return this.start(index + 1) - 2;
  }

  private grow(): void {
    const starts = new Int32Array(this.starts.length * 2);
    starts.set(this.starts);
    this.starts = starts;
    const rowsBefore = new Int32Array(starts.length + 1);
    rowsBefore.set(this.rowsBefore);
    this.rowsBefore = rowsBefore;
  }
}
