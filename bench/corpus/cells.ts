/** Terminal cell widths and escape sequences the generated corpora write. */

/** Columns a string takes (wide East Asian and emoji 2, combining marks and VS16 0, others 1): enough to pad boxes. */
export function displayWidth(text: string): number {
  let width = 0;
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if ((code >= 0x300 && code <= 0x36f) || code === 0xfe0f || code === 0x200d) continue;
    const wide =
      (code >= 0x1100 && code <= 0x115f) ||
      (code >= 0x2e80 && code <= 0xa4cf) ||
      (code >= 0xac00 && code <= 0xd7a3) ||
      (code >= 0xf900 && code <= 0xfaff) ||
      (code >= 0xff00 && code <= 0xff60) ||
      (code >= 0x1f300 && code <= 0x1faff) ||
      code === 0x2705 || code === 0x274c || code === 0x2728;
    width += wide ? 2 : 1;
  }
  return width;
}

/** `text` cut or padded with spaces to exactly `width` columns. */
export function fit(text: string, width: number): string {
  let out = '';
  let used = 0;
  for (const char of text) {
    const w = displayWidth(char);
    if (used + w > width) break;
    out += char;
    used += w;
  }
  return out + ' '.repeat(width - used);
}

export const ESC = '\x1b';
export const CSI = `${ESC}[`;
export const RESET = `${CSI}0m`;
export const SYNC_BEGIN = `${CSI}?2026h`;
export const SYNC_END = `${CSI}?2026l`;
export const fg256 = (n: number) => `${CSI}38;5;${n}m`;
export const bg256 = (n: number) => `${CSI}48;5;${n}m`;
export const fgRgb = (r: number, g: number, b: number) => `${CSI}38;2;${r};${g};${b}m`;
export const bgRgb = (r: number, g: number, b: number) => `${CSI}48;2;${r};${g};${b}m`;
export const moveTo = (row: number, column: number) => `${CSI}${row};${column}H`;

/**
 * Puts a terminal back to a plain screen with the cursor on its bottom row:
 * what the bench appends after a corpus, so the line it echoes next is read
 * the same way on every host, whatever modes the corpus left on.
 */
export const TERMINAL_RESET =
  `${SYNC_END}${RESET}${CSI}r${CSI}?1049l${CSI}?25h${CSI}?2004l${CSI}?1000l${CSI}?1002l${CSI}?1003l${CSI}?1006l${CSI}?1004l${CSI}?1l${ESC}>${CSI}4l${ESC}(B${CSI}999;1H\r\n`;
