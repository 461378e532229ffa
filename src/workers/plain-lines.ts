/**
 * Runs of plain lines in a pane's output: printable ASCII, at most the
 * screen's width, each ended by CR LF (what `cat`, compilers, test runners
 * and logs print most, after the PTY turned LF into CR LF). Such a line,
 * printed at the bottom of a plain screen (emulator.ts `printsPlainLines`),
 * becomes exactly one row holding exactly its bytes, so the lines of a long
 * run that would only pass through the screen can go to the history
 * directly (output-parser.ts).
 */

const CR = 0x0d;
const LF = 0x0a;

export class PlainLineRun {
  /** Offset of each line found, in order; the line's text ends 2 bytes (its CR LF) before the next start or `end`. */
  starts = new Int32Array(1024);
  /** Lines found by the last scan. */
  count = 0;
  /** Offset just past the last line's CR LF: where the run stops (a byte or line that is not plain, or the data's end). */
  end = 0;
  /** Index of the last line with any text (-1 when every line was empty). */
  lastWithText = -1;

  /** Finds the run of plain lines that starts at `offset`; returns how many lines it holds. */
  scan(data: Uint8Array, offset: number, cols: number): number {
    const length = data.length;
    let count = 0;
    let lastWithText = -1;
    let i = offset;
    this.end = offset;
    while (i < length) {
      const start = i;
      let byte = data[i] as number;
      while (byte >= 0x20 && byte < 0x7f && ++i < length) byte = data[i] as number;
      if (i - start > cols || i + 1 >= length || byte !== CR || data[i + 1] !== LF) break;
      if (count === this.starts.length) this.grow();
      this.starts[count] = start;
      if (i > start) lastWithText = count;
      count++;
      i += 2;
      this.end = i;
    }
    this.count = count;
    this.lastWithText = lastWithText;
    return count;
  }

  /** Offset just past the text of line `index` (before its CR LF). */
  textEnd(index: number): number {
    return (index + 1 < this.count ? (this.starts[index + 1] as number) : this.end) - 2;
  }

  private grow(): void {
    const grown = new Int32Array(this.starts.length * 2);
    grown.set(this.starts);
    this.starts = grown;
  }
}
