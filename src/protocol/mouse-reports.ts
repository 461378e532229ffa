/**
 * Right-button mouse reports in what a person's terminal sends (docs/protocol.md §5.6,
 * `pane.input.set`). A terminal reports the mouse to a program that turned reporting on, in
 * one of three encodings: SGR (`CSI < b ; x ; y M|m`), urxvt (`CSI b ; x ; y M`) and the
 * original X10 form (`CSI M` and three characters, the first 32 + b). In each, the button
 * code's two low bits say which button (2: the right one), 32 marks a drag, 4/8/16 the
 * modifiers, and 64 or 128 the wheel and extra buttons, which are not the right button
 * whatever their low bits. `herdr pane attach` and `herdr web` pass a person's right clicks
 * to the program only when the pane's `right_click` is `pane`. Pure: the CLI and the web
 * page both run it.
 */

/** SGR, urxvt and X10 reports; group 1, 2 or 3 holds the button code as its encoding writes it. */
const REPORT = /\x1b\[<(\d+);\d+;\d+[Mm]|\x1b\[(\d+);\d+;\d+M|\x1b\[M([\s\S])[\s\S]{2}/g;

function isRightButton(sgr: string | undefined, urxvt: string | undefined, x10: string | undefined): boolean {
  const code = sgr !== undefined ? Number(sgr) : urxvt !== undefined ? Number(urxvt) - 32 : (x10?.charCodeAt(0) ?? 0) - 32;
  return (code & 0b1100_0011) === 2;
}

/** Whether `text` holds a right-button press, release or drag report. */
export function hasRightButtonReport(text: string): boolean {
  for (const [, sgr, urxvt, x10] of text.matchAll(REPORT)) if (isRightButton(sgr, urxvt, x10)) return true;
  return false;
}

/** `text` without its right-button reports (every other byte as it was). */
export function withoutRightButtonReports(text: string): string {
  return text.replace(REPORT, (report: string, sgr?: string, urxvt?: string, x10?: string) => (isRightButton(sgr, urxvt, x10) ? '' : report));
}
