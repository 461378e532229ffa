/**
 * Turning emulator rows into text: UTF-8 bytes for the history (one pass over
 * the cell words), and the SGR form for `strip_ansi: false`.
 */
import type { IBufferCell, IBufferLine } from '@xterm/headless';
import {
  CONTENT_CODEPOINT_MASK,
  CONTENT_HAS_CONTENT,
  CONTENT_IS_COMBINED,
  CONTENT_WIDTH_SHIFT,
  type RowCells,
  rowCellsOf,
} from './emulator.js';

const RESET = '\x1b[0m';

/** A cell whose content word says: one column, code point below 0x80, not combined. */
const NOT_ASCII_CELL = 0x3fff80;

/** xterm's attribute bits in a cell's fg and bg words (its FgFlags, BgFlags and colour modes). */
const FG_INVERSE = 0x4000000;
const FG_BOLD = 0x8000000;
const FG_UNDERLINE = 0x10000000;
const FG_BLINK = 0x20000000;
const FG_INVISIBLE = 0x40000000;
const FG_STRIKETHROUGH = 0x80000000;
const BG_ITALIC = 0x4000000;
const BG_DIM = 0x8000000;
/** Underline styles and colours live outside the words then; such rows take the public way. */
const BG_HAS_EXTENDED = 0x10000000;
const BG_OVERLINE = 0x40000000;
const COLOR_MODE = 0x3000000;
const COLOR_RGB = 0x3000000;

/** The colour part of an SGR for a fg or bg word, as `colorParams` writes it from the public API. */
function colorOfWord(word: number, isFg: boolean): string {
  const mode = word & COLOR_MODE;
  if (mode === 0) return '';
  if (mode === COLOR_RGB) return `;${isFg ? 38 : 48};2;${(word >>> 16) & 0xff};${(word >>> 8) & 0xff};${word & 0xff}`;
  const color = word & 0xff;
  if (color < 8) return `;${(isFg ? 30 : 40) + color}`;
  if (color < 16) return `;${(isFg ? 90 : 100) + color - 8}`;
  return `;${isFg ? 38 : 48};5;${color}`;
}

/** The SGR sequence for a cell's fg and bg words (what `sgrOf` makes of the same cell). */
function sgrOfWords(fg: number, bg: number): string {
  if (fg === 0 && bg === 0) return RESET;
  let params = '0';
  if (fg & FG_BOLD) params += ';1';
  if (bg & BG_DIM) params += ';2';
  if (bg & BG_ITALIC) params += ';3';
  if (fg & FG_UNDERLINE) params += ';4';
  if (fg & FG_BLINK) params += ';5';
  if (fg & FG_INVERSE) params += ';7';
  if (fg & FG_INVISIBLE) params += ';8';
  if (fg & FG_STRIKETHROUGH) params += ';9';
  if (bg & BG_OVERLINE) params += ';53';
  return `\x1b[${params}${colorOfWord(fg, true)}${colorOfWord(bg, false)}m`;
}

/** The number of cells `translateToString(true)` keeps: up to the last cell with content, wide cells whole. */
function trimmedCells(data: Uint32Array, cells: number): number {
  for (let x = cells - 1; x >= 0; x--) {
    const content = data[x * 3] as number;
    if (content & CONTENT_HAS_CONTENT) return x + (content >>> CONTENT_WIDTH_SHIFT);
  }
  return 0;
}

/** Encodes rows into one reused buffer; what it returns is valid until its next call. */
export class RowEncoder {
  private bytes = Buffer.allocUnsafeSlow(4096);
  /** Whether the row last encoded has a cell with a colour or attribute (its fg or bg word is not 0). */
  styled = false;

  /** The row's text as UTF-8, right-trimmed exactly as `translateToString(true)` trims it. */
  encode(row: RowCells): Uint8Array {
    const data = row._data;
    const cells = row.length;
    const end = trimmedCells(data, cells);
    if (this.bytes.length < end * 4) this.reserve(end * 4, 0);
    let bytes = this.bytes;
    let at = 0;
    let style = 0;
    for (let x = 0; x < end; ) {
      const i = x * 3;
      const content = data[i] as number;
      style |= (data[i + 1] as number) | (data[i + 2] as number);
      if ((content & NOT_ASCII_CELL) === 0) {
        // The common cell: ASCII (or empty, which reads as a space).
        bytes[at++] = (content & 0x7f) || 0x20;
        x++;
        continue;
      }
      at = this.writeCell(row, x, content, at, end);
      bytes = this.bytes;
      x += content >>> CONTENT_WIDTH_SHIFT || 1;
    }
    for (let i = end * 3; i < cells * 3; i += 3) style |= (data[i + 1] as number) | (data[i + 2] as number);
    this.styled = style !== 0;
    return bytes.subarray(0, at);
  }

  /**
   * The row's SGR form as UTF-8, straight from its cell words: the same bytes
   * `styledRow` makes through the public per-cell API, without a string or a
   * cell object per cell. Undefined when the row has no attributes after all;
   * null when a cell has extended attributes (underline styles), which only
   * the public API reads.
   */
  encodeStyled(row: RowCells): Uint8Array | undefined | null {
    const data = row._data;
    let end = row.length;
    for (let i = 2; i < end * 3; i += 3) if ((data[i] as number) & BG_HAS_EXTENDED) return null;
    // Right-trim blank or space cells without attributes.
    while (end > 0) {
      const i = (end - 1) * 3;
      const content = data[i] as number;
      const blank = (content & CONTENT_IS_COMBINED) === 0 && ((content & CONTENT_CODEPOINT_MASK) === 0 || (content & CONTENT_CODEPOINT_MASK) === 0x20);
      if (!blank || data[i + 1] !== 0 || data[i + 2] !== 0) break;
      end--;
    }
    this.reserve(end * 4 + 64, 0);
    let at = 0;
    let current = RESET;
    let styled = false;
    let lastFg = -1;
    let lastBg = -1;
    for (let x = 0; x < end; x++) {
      const i = x * 3;
      const content = data[i] as number;
      if (content >>> CONTENT_WIDTH_SHIFT === 0) continue;
      const fg = data[i + 1] as number;
      const bg = data[i + 2] as number;
      if (fg !== lastFg || bg !== lastBg) {
        const sgr = sgrOfWords(fg, bg);
        if (sgr !== current) {
          this.reserve(at + sgr.length + (end - x) * 4 + 8, at);
          at += this.bytes.write(sgr, at, 'latin1');
          current = sgr;
          styled = true;
        }
        lastFg = fg;
        lastBg = bg;
      }
      at = this.writeCell(row, x, content, at, end);
    }
    if (!styled) return undefined;
    if (current !== RESET) {
      this.reserve(at + RESET.length, at);
      at += this.bytes.write(RESET, at, 'latin1');
    }
    return this.bytes.subarray(0, at);
  }

  /**
   * Cell `x` (content word `content`) as UTF-8 at `at`: its combined string,
   * or its code point (an empty cell reads as a space); room is kept for the
   * cells up to `end` at 4 bytes each. Returns the offset after it.
   */
  private writeCell(row: RowCells, x: number, content: number, at: number, end: number): number {
    if (content & CONTENT_IS_COMBINED) {
      const text = row._combined[x] ?? '';
      this.reserve(at + Buffer.byteLength(text) + (end - x) * 4 + 8, at);
      return at + this.bytes.write(text, at);
    }
    const bytes = this.bytes;
    const cp = content & CONTENT_CODEPOINT_MASK;
    if (cp < 0x80) bytes[at++] = cp || 0x20;
    else if (cp < 0x800) {
      bytes[at++] = 0xc0 | (cp >> 6);
      bytes[at++] = 0x80 | (cp & 0x3f);
    } else if (cp < 0x10000) {
      bytes[at++] = 0xe0 | (cp >> 12);
      bytes[at++] = 0x80 | ((cp >> 6) & 0x3f);
      bytes[at++] = 0x80 | (cp & 0x3f);
    } else {
      bytes[at++] = 0xf0 | (cp >> 18);
      bytes[at++] = 0x80 | ((cp >> 12) & 0x3f);
      bytes[at++] = 0x80 | ((cp >> 6) & 0x3f);
      bytes[at++] = 0x80 | (cp & 0x3f);
    }
    return at;
  }

  /** A string as UTF-8 in the reused buffer. */
  text(text: string): Uint8Array {
    const size = Buffer.byteLength(text);
    if (this.bytes.length < size) this.reserve(size, 0);
    return this.bytes.subarray(0, this.bytes.write(text, 0));
  }

  /** The row's right-trimmed text as a flat string (a char-by-char string would pin ~3 KB a row). */
  string(line: IBufferLine): string {
    const row = rowCellsOf(line);
    if (!row) return line.translateToString(true);
    const bytes = this.encode(row);
    return bytes.length === 0 ? '' : this.bytes.toString('utf8', 0, bytes.length);
  }

  /** Grows the buffer to hold `size` bytes, keeping the first `keep`. */
  private reserve(size: number, keep: number): void {
    if (size <= this.bytes.length) return;
    const grown = Buffer.allocUnsafeSlow(Math.max(size, this.bytes.length * 2));
    this.bytes.copy(grown, 0, 0, keep);
    this.bytes = grown;
  }
}

/**
 * A row's SGR form as UTF-8 (valid until the encoder's next call), or
 * undefined when it has no attributes: from its cell words where it can,
 * through the public per-cell API where it must (extended attributes, or
 * internals not where we expect them).
 */
export function styledBytes(line: IBufferLine, cell: IBufferCell, encoder: RowEncoder): Uint8Array | undefined {
  const row = rowCellsOf(line);
  const fromCells = row ? encoder.encodeStyled(row) : null;
  if (fromCells !== null) return fromCells;
  const text = styledRow(line, cell);
  return text === undefined ? undefined : encoder.text(text);
}

/**
 * Whether a row may carry colours or attributes: any cell whose fg or bg word
 * is not 0 (a default cell has both 0). Without the cell words: `true`, and
 * the caller takes the slow, public way.
 */
export function rowMayHaveStyle(line: IBufferLine): boolean {
  const row = rowCellsOf(line);
  if (!row) return true;
  const data = row._data;
  const end = row.length * 3;
  for (let i = 1; i < end; i += 3) {
    if ((data[i] as number) !== 0 || (data[i + 1] as number) !== 0) return true;
  }
  return false;
}

function colorParams(cell: IBufferCell, layer: 'fg' | 'bg'): string {
  const isFg = layer === 'fg';
  if (isFg ? cell.isFgDefault() : cell.isBgDefault()) return '';
  const color = isFg ? cell.getFgColor() : cell.getBgColor();
  if (isFg ? cell.isFgRGB() : cell.isBgRGB()) {
    return `;${isFg ? 38 : 48};2;${(color >> 16) & 0xff};${(color >> 8) & 0xff};${color & 0xff}`;
  }
  if (color < 8) return `;${(isFg ? 30 : 40) + color}`;
  if (color < 16) return `;${(isFg ? 90 : 100) + color - 8}`;
  return `;${isFg ? 38 : 48};5;${color}`;
}

/** The SGR sequence that sets exactly this cell's attributes from a reset. */
function sgrOf(cell: IBufferCell): string {
  let params = '0';
  if (cell.isBold()) params += ';1';
  if (cell.isDim()) params += ';2';
  if (cell.isItalic()) params += ';3';
  if (cell.isUnderline()) params += ';4';
  if (cell.isBlink()) params += ';5';
  if (cell.isInverse()) params += ';7';
  if (cell.isInvisible()) params += ';8';
  if (cell.isStrikethrough()) params += ';9';
  if (cell.isOverline()) params += ';53';
  params += colorParams(cell, 'fg') + colorParams(cell, 'bg');
  return `\x1b[${params}m`;
}

/**
 * The row with SGR escapes where attributes change, right-trimmed of default
 * blank cells, ending in a reset when any attribute was set; undefined when
 * the row turns out to have no attributes. A cell whose fg and bg words equal
 * the previous cell's has the same SGR, so it is computed only on a change.
 */
export function styledRow(line: IBufferLine, cell: IBufferCell): string | undefined {
  const data = rowCellsOf(line)?._data;
  let end = line.length;
  while (end > 0) {
    const c = line.getCell(end - 1, cell);
    if (!c || (c.getChars() !== '' && c.getChars() !== ' ') || !c.isAttributeDefault()) break;
    end--;
  }
  let out = '';
  let current = RESET;
  let styled = false;
  let lastFg = -1;
  let lastBg = -1;
  for (let x = 0; x < end; x++) {
    const c = line.getCell(x, cell);
    if (!c || c.getWidth() === 0) continue;
    const fg = data ? (data[x * 3 + 1] as number) : -2;
    const bg = data ? (data[x * 3 + 2] as number) : -2;
    if (fg !== lastFg || bg !== lastBg || !data) {
      const sgr = c.isAttributeDefault() ? RESET : sgrOf(c);
      if (sgr !== current) {
        out += sgr;
        current = sgr;
        styled = true;
      }
      lastFg = fg;
      lastBg = bg;
    }
    out += c.getChars() || ' ';
  }
  if (!styled) return undefined;
  if (current !== RESET) out += RESET;
  return out;
}
