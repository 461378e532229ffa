/**
 * The sizing of emulator writes. A pane's output is parsed as it is read
 * (emulator.ts), in writes that can never scroll more rows than the
 * emulator's scrollback holds, so no row is trimmed before
 * scrollback-capture.ts has copied it.
 *
 * It also bounds string sequences (OSC, DCS, APC, PM, SOS): past
 * MAX_STRING_BYTES of payload the rest, up to the terminator, never reaches
 * the emulator. xterm collects every such payload, once for each handler of
 * its number, up to 10 MB; an unterminated 8 MB OSC took a shard's heap to
 * 285 MB, and a title of megabytes would reach every pane_info.
 */
import { SCROLLBACK_ROWS } from './emulator.js';

/** The most rows one write may add to the scrollback (the capture marker's row must survive it). */
export const MAX_ROWS_PER_WRITE = SCROLLBACK_ROWS - 1;

/**
 * A REP (`CSI n b`, repeat the last character n times) of more than this many
 * rows' worth is dropped by the pane: one such sequence could otherwise wrap
 * more rows than a write may add (and xterm allocates n cells for it).
 */
export const MAX_REPEAT_ROWS = MAX_ROWS_PER_WRITE - 2;

/** A string sequence's payload beyond this is dropped before the emulator (nothing we or xterm headless read is longer). */
export const MAX_STRING_BYTES = 64 * 1024;

const enum State {
  Ground,
  Escape,
  Csi,
  /** OSC, DCS, SOS, PM, APC: until BEL or ST. */
  String,
  StringEscape,
}

const ESC = 0x1b;

/**
 * Decides how many bytes of a pane's output go into the next write so that
 * the write adds at most `maxRows` rows to the normal screen's scrollback.
 * It follows escape sequences across writes (one may end mid-sequence).
 *
 * Rows are added only by LF, VT, FF, IND and NEL (ESC D, ESC E, C1 U+0084,
 * U+0085), auto-wrap, and REP. The count never underestimates them: every line
 * feed counts (even in the alternate screen); each byte of a UTF-8 character
 * counts as a column (a wide character is 3 or 4 bytes for its 2 columns);
 * after a cursor-moving sequence, a C1 control or a tab the column is taken
 * as the last one, so the next printed byte counts as a wrap. SGR and string
 * sequences (titles) leave the column as it was.
 */
export class WriteSizer {
  private state = State.Ground;
  private column = 0;
  private columnBeforeEscape = 0;
  private param = 0;
  private paramDone = false;
  private plainCsi = true;
  private stringBytes = 0;

  /** No escape sequence is open (the emulator's parser is in its ground state too). */
  get inGround(): boolean {
    return this.state === State.Ground;
  }

  /** Bytes of `data` from `offset` to drop: payload of a string sequence past MAX_STRING_BYTES, up to its terminator. */
  oversizedString(data: Uint8Array, offset: number): number {
    if (this.state !== State.String || this.stringBytes < MAX_STRING_BYTES) return 0;
    let end = offset;
    while (end < data.length) {
      const byte = data[end] as number;
      if (byte === 0x07 || byte === 0x18 || byte === 0x1a || byte === ESC) break;
      end++;
    }
    return end - offset;
  }

  /** Bytes of `data` from `offset` for the next write (at least 1 when any are left and maxRows ≥ 1). */
  next(data: Uint8Array, offset: number, maxRows: number, cols: number): number {
    const limit = data.length;
    let rows = 0;
    let i = offset;
    // One byte adds at most one row (checked before it), a REP as many as it wraps (checked at its final byte).
    for (; i < limit && rows < maxRows; i++) {
      const byte = data[i] as number;
      switch (this.state) {
        case State.Ground:
          if (byte >= 0x20 && byte < 0x7f) {
            // A run of printable ASCII, counted in one go (most output is), as far as this write has
            // rows for: the rest of this row and the rows left. Bounding the scan keeps a line of
            // megabytes linear (it used to be rescanned whole for every byte: 35 KB/s).
            const room = Math.max(0, cols - this.column) + (maxRows - rows) * cols;
            const stop = Math.min(limit, i + room);
            let end = i + 1;
            while (end < stop && (data[end] as number) >= 0x20 && (data[end] as number) < 0x7f) end++;
            if (room > 0) {
              const total = this.column + (end - i);
              const wraps = total > cols ? Math.ceil((total - cols) / cols) : 0;
              rows += wraps;
              this.column = wraps === 0 ? total : ((total - cols - 1) % cols) + 1;
              i = end - 1;
              break;
            }
          }
          if (byte >= 0x20 && byte !== 0x7f && byte !== 0xc2) {
            if (++this.column > cols) {
              rows++;
              this.column = 1;
            }
          } else if (byte === 0x0d) this.column = 0;
          else if (byte === 0x0a || byte === 0x0b || byte === 0x0c) rows++;
          else if (byte === ESC) {
            this.columnBeforeEscape = this.column;
            this.state = State.Escape;
          } else if (byte === 0x09) this.column = cols;
          else if (byte === 0xc2) {
            // U+0080–U+009F are C1 controls (IND, NEL, CSI, OSC…); anything else is a printable character.
            const next = data[i + 1];
            if (next === undefined || (next >= 0x80 && next <= 0x9f)) {
              if (next === undefined || next === 0x84 || next === 0x85) rows++;
              this.column = cols;
            } else if (++this.column > cols) {
              rows++;
              this.column = 1;
            }
          }
          break;
        case State.Escape:
          if (byte === 0x5b) {
            this.state = State.Csi;
            this.param = 0;
            this.paramDone = false;
            this.plainCsi = true;
          } else if (byte === 0x5d || byte === 0x50 || byte === 0x58 || byte === 0x5e || byte === 0x5f) {
            this.state = State.String;
            this.stringBytes = 0;
          }
          else if (byte !== ESC) {
            if (byte === 0x44 || byte === 0x45) rows++;
            this.column = cols;
            // After an intermediate (ESC ( B, ESC # 8) the final byte counts as printed: an over-count only.
            this.state = State.Ground;
          }
          break;
        case State.Csi:
          if (byte >= 0x30 && byte <= 0x39) {
            if (!this.paramDone) this.param = Math.min(this.param * 10 + (byte - 0x30), 1e7);
          } else if (byte === 0x3b || byte === 0x3a) this.paramDone = true;
          else if (byte >= 0x3c && byte <= 0x3f) this.plainCsi = false; // a private prefix (?, >, <, =)
          else if (byte >= 0x20 && byte <= 0x2f) this.plainCsi = false; // an intermediate
          else if (byte >= 0x40 && byte <= 0x7e) {
            if (byte === 0x6d) this.column = this.columnBeforeEscape; // SGR: the cursor stays
            else {
              if (byte === 0x62 && this.plainCsi) {
                const repeated = Math.min(Math.ceil(Math.max(1, this.param) / cols), MAX_REPEAT_ROWS) + 1;
                if (rows > 0 && rows + repeated > maxRows) return i - offset; // the REP starts the next write
                rows += repeated;
              }
              this.column = cols;
            }
            this.state = State.Ground;
          } else if (byte === ESC) this.state = State.Escape;
          else if (byte === 0x18 || byte === 0x1a) {
            this.column = cols;
            this.state = State.Ground;
          }
          break;
        case State.String:
          if (byte === 0x07 || byte === 0x18 || byte === 0x1a) {
            this.column = this.columnBeforeEscape;
            this.state = State.Ground;
          } else if (byte === ESC) this.state = State.StringEscape;
          // The write ends at the bound; what follows is dropped up to the terminator (oversizedString).
          else if (++this.stringBytes >= MAX_STRING_BYTES) return i + 1 - offset;
          break;
        case State.StringEscape:
          if (byte === 0x5c) {
            this.column = this.columnBeforeEscape;
            this.state = State.Ground;
          } else {
            // Any other byte after ESC starts a new escape, as in xterm.
            this.state = State.Escape;
            i--;
          }
          break;
      }
    }
    return i - offset;
  }
}
