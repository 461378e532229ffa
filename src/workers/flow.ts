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
 * The emulator keeps a small scrollback (xterm costs ~1.5 KB per 120-column
 * row, and keeps the row objects of its whole capacity alive once used); rows
 * that scroll into it are moved to the compact History whenever it holds
 * HARVEST_AT_ROWS or more, after which the emulator's scrollback is erased.
 */
export const EMULATOR_SCROLLBACK_ROWS = 500;
export const HARVEST_AT_ROWS = 100;
export const HISTORY_ROWS = 10_000;

/** Upper bound of one emulator write, for fairness between panes of a shard. */
export const MAX_WRITE_BYTES = 64 * 1024;

/**
 * How many bytes of `data` (from `offset`) can be written without adding more
 * than `maxRows` rows to the scrollback. xterm trims rows silently once its
 * scrollback is full and has no public trim event, so no write may ever be able
 * to fill it. A row is added only by a line feed (LF, VT, FF), an escape
 * sequence (IND, NEL, …), C1 NEL, or an auto-wrap, which needs at least `cols`
 * bytes of printed text; counting those bounds the rows from above.
 */
export function rowSafeLength(data: Uint8Array, offset: number, maxRows: number, cols: number): number {
  const limit = Math.min(data.length, offset + MAX_WRITE_BYTES);
  let rows = 1;
  let sinceWrap = 0;
  let i = offset;
  for (; i < limit; i++) {
    const byte = data[i];
    if (byte === 0x0a || byte === 0x0b || byte === 0x0c || byte === 0x1b || byte === 0x85) rows++;
    if (++sinceWrap >= cols) {
      rows++;
      sinceWrap = 0;
    }
    if (rows > maxRows) break;
  }
  return i - offset;
}
