/**
 * Turning emulator rows into text: plain (flat strings) and with SGR escapes
 * for `strip_ansi: false`.
 */
import type { IBufferCell, IBufferLine } from '@xterm/headless';

/**
 * `translateToString` builds a V8 cons string char by char; stored as is, each
 * kept row pins ~3 KB. Reading one char code flattens it in place, so whatever
 * keeps text long-term must pass it through here.
 */
export function flatten(text: string): string {
  if (text.length > 0) text.charCodeAt(0);
  return text;
}

interface InternalLineView {
  _line?: { _data?: unknown };
}

/**
 * Whether a row may carry colours or attributes. Fast path: the cell words of
 * xterm's line (3 × u32 per cell: content, fg, bg; fg and bg are 0 for default
 * cells) in the pinned @xterm/headless version; anything unexpected answers
 * `true` and the caller serializes the slow, public way.
 */
export function rowMayHaveStyle(line: IBufferLine): boolean {
  const data = (line as unknown as InternalLineView)._line?._data;
  if (!(data instanceof Uint32Array)) return true;
  for (let i = 1; i < data.length; i += 3) {
    if ((data[i] ?? 0) !== 0 || (data[i + 1] ?? 0) !== 0) return true;
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

const RESET = '\x1b[0m';

/**
 * The row with SGR escapes where attributes change, right-trimmed of default
 * blank cells, ending in a reset when any attribute was set. `plain` is the
 * row's plain text, returned as is when the row turns out to have no attributes.
 */
export function styledRow(line: IBufferLine, plain: string, cell: IBufferCell): string {
  let end = line.length;
  while (end > 0) {
    const c = line.getCell(end - 1, cell);
    if (!c || (c.getChars() !== '' && c.getChars() !== ' ') || !c.isAttributeDefault()) break;
    end--;
  }
  let out = '';
  let current = RESET;
  let styled = false;
  for (let x = 0; x < end; x++) {
    const c = line.getCell(x, cell);
    if (!c || c.getWidth() === 0) continue;
    const sgr = c.isAttributeDefault() ? RESET : sgrOf(c);
    if (sgr !== current) {
      out += sgr;
      current = sgr;
      styled = true;
    }
    out += c.getChars() || ' ';
  }
  if (!styled) return plain;
  if (current !== RESET) out += RESET;
  return flatten(out);
}
