/**
 * The local terminal while a pane is attached. The pane is drawn on the
 * terminal's own screen (cleared first), and the pane's switches to and from
 * the alternate screen pass straight through, so the terminal's two screens
 * hold the pane's two screens. What the pane turned on (mouse reports,
 * bracketed paste, application keys, a hidden cursor, scroll margins) is
 * turned off again when the attach ends.
 */
const RESET_MODES =
  '\x1b[0m\x1b[r\x1b[?25h\x1b[?9l\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1004l\x1b[?1005l\x1b[?1006l\x1b[?1015l' +
  '\x1b[?2004l\x1b[?1l\x1b>\x1b[?6l\x1b[?7h\x1b[4l';
const CLEAR = '\x1b[H\x1b[2J';
const LEAVE_ALTERNATE = '\x1b[?1049l';
/** The switches between the screens (1049 with cursor save, 1047, 47), as written by programs. */
const SCREEN_SWITCH = /\x1b\[\?(?:1049|1047|47)([hl])/g;

export class AttachedScreen {
  /** Whether the pane (and so this terminal) is on its alternate screen. */
  private alternate = false;

  constructor(private readonly output: NodeJS.WriteStream) {}

  /** Replaces what the terminal shows with a pane snapshot (at attach and at every resync). */
  draw(snapshot: string): boolean {
    const leave = this.alternate ? LEAVE_ALTERNATE : '';
    this.track(snapshot);
    return this.output.write(leave + RESET_MODES + CLEAR + snapshot);
  }

  /** The pane's output, as it wrote it. Returns false when the terminal is behind (wait for 'drain'). */
  write(bytes: Buffer): boolean {
    this.track(bytes.toString('latin1'));
    return this.output.write(bytes);
  }

  /** Hands the terminal back: modes off, the normal screen, the cursor on a fresh line at the bottom, then `message`. */
  restore(message: string): void {
    const leave = this.alternate ? LEAVE_ALTERNATE : '';
    this.alternate = false;
    const bottom = `\x1b[${this.output.rows ?? 1};1H\r\n`;
    this.output.write(RESET_MODES + leave + bottom + (message === '' ? '' : `${message}\r\n`));
  }

  private track(text: string): void {
    for (const match of text.matchAll(SCREEN_SWITCH)) this.alternate = match[1] === 'h';
  }
}
