/**
 * Flow control and the sizing of emulator writes.
 *
 * Output is never dropped: when a pane's unparsed bytes pass HIGH_WATER the
 * PTY is paused, so the flooding program blocks in write(2) at its source, and
 * it resumes once the emulator has parsed the queue down to LOW_WATER.
 */
export const HIGH_WATER_BYTES = 256 * 1024;
export const LOW_WATER_BYTES = 64 * 1024;

/**
 * The emulator keeps a small scrollback: xterm costs ~2.9 KB per 120-column row
 * (measured: cell arrays plus line objects) and keeps the rows of its whole
 * capacity alive once used. After every write that left rows in it, they are
 * moved to the compact History and erased from the emulator, so the
 * scrollback only ever holds what one write can add.
 */
export const EMULATOR_SCROLLBACK_ROWS = 100;
export const HARVEST_AT_ROWS = 1;
export const HISTORY_ROWS = 10_000;

/** Upper bound of one emulator write, for fairness between panes of a shard. */
export const MAX_WRITE_BYTES = 64 * 1024;

/**
 * How many bytes of `data` (from `offset`) to write next so that the write adds
 * at most `maxRows` rows to the normal screen's scrollback. xterm trims rows
 * silently once its scrollback is full and has no public trim event, so no
 * write may ever be able to fill it.
 *
 * Rows are added only by LF, VT, FF, C1 NEL, IND/NEL (ESC D, ESC E) and
 * auto-wrap; the count below never underestimates them: every line feed
 * counts (even in the alternate screen), and after any escape the cursor
 * column is taken as the last one (cursor movement), so the next printed byte
 * counts as a wrap.
 *
 * A write also ends before a DEC private mode sequence (`ESC [ ?`, e.g.
 * entering the alternate screen) that does not start it, so rows printed
 * before a full-screen program starts are moved to history before it runs:
 * the scrollback then has all its room while the program redraws.
 */
export function rowSafeLength(data: Uint8Array, offset: number, maxRows: number, cols: number): number {
  const limit = Math.min(data.length, offset + MAX_WRITE_BYTES);
  let rows = 0;
  let column = 0;
  let i = offset;
  for (; i < limit; i++) {
    const byte = data[i];
    if (byte === 0x0d) column = 0;
    else if (byte === 0x0a || byte === 0x0b || byte === 0x0c || byte === 0x85) rows++;
    else if (byte === 0x1b) {
      const next = data[i + 1];
      if (i > offset && (next === undefined || (next === 0x5b && data[i + 2] === 0x3f))) break;
      if (next === undefined || next === 0x44 || next === 0x45) rows++;
      column = cols;
    } else if (++column > cols) {
      rows++;
      column = 1;
    }
    if (rows > maxRows) break;
  }
  return i - offset;
}
