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
  private readonly boundary = new OutputBoundary();
  /** Sequences of our own (notifications) waiting for the pane's output to reach a point between sequences. */
  private pending = '';

  constructor(private readonly output: NodeJS.WriteStream) {}

  /** Replaces what the terminal shows with a pane snapshot (at attach and at every resync). */
  draw(snapshot: string): boolean {
    const leave = this.alternate ? LEAVE_ALTERNATE : '';
    this.track(snapshot);
    this.boundary.reset();
    return this.output.write(leave + RESET_MODES + CLEAR + snapshot + this.takePending());
  }

  /** The pane's output, as it wrote it. Returns false when the terminal is behind (wait for 'drain'). */
  write(bytes: Buffer): boolean {
    this.track(bytes.toString('latin1'));
    this.boundary.feed(bytes);
    const ours = this.boundary.between ? this.takePending() : '';
    return this.output.write(ours === '' ? bytes : Buffer.concat([bytes, Buffer.from(ours, 'utf8')]));
  }

  /**
   * A sequence of our own for the terminal (a notification): written at once when the pane's
   * output stands between two sequences and characters, else right after the output that ends
   * the one it is inside, so it never lands within the pane's bytes.
   */
  insert(sequence: string): void {
    if (!this.boundary.between) {
      this.pending += sequence;
      return;
    }
    this.output.write(sequence);
  }

  private takePending(): string {
    const pending = this.pending;
    this.pending = '';
    return pending;
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

/**
 * Where the pane's output stands after the bytes so far: between escape sequences and whole
 * UTF-8 characters, or inside one. Output arrives in chunks cut anywhere, so our own sequences
 * may go in only at such a point.
 */
export class OutputBoundary {
  private state: 'ground' | 'escape' | 'csi' | 'string' | 'stringEscape' = 'ground';
  /** Continuation bytes still owed by a UTF-8 character begun. */
  private owed = 0;

  get between(): boolean {
    return this.state === 'ground' && this.owed === 0;
  }

  reset(): void {
    this.state = 'ground';
    this.owed = 0;
  }

  feed(bytes: Uint8Array): void {
    for (const byte of bytes) this.step(byte);
  }

  private step(byte: number): void {
    switch (this.state) {
      case 'ground':
        if (byte === 0x1b) this.state = 'escape';
        else if (byte >= 0x80 && byte < 0xc0) this.owed = Math.max(0, this.owed - 1);
        else if (byte >= 0xc0) this.owed = byte >= 0xf0 ? 3 : byte >= 0xe0 ? 2 : 1;
        else this.owed = 0;
        return;
      case 'escape':
        // ESC [ a control sequence; ESC ] P _ ^ X a string (OSC, DCS, APC, PM, SOS); intermediates wait for the final byte.
        if (byte === 0x5b) this.state = 'csi';
        else if (byte === 0x5d || byte === 0x50 || byte === 0x5f || byte === 0x5e || byte === 0x58) this.state = 'string';
        else if (byte < 0x20 || byte > 0x2f) this.state = 'ground';
        return;
      case 'csi':
        if (byte >= 0x40 && byte <= 0x7e) this.state = 'ground';
        return;
      case 'string':
        if (byte === 0x07) this.state = 'ground';
        else if (byte === 0x1b) this.state = 'stringEscape';
        return;
      case 'stringEscape':
        // ESC \ ends the string; any other ESC begins a new sequence.
        if (byte === 0x5c) this.state = 'ground';
        else {
          this.state = 'escape';
          this.step(byte);
        }
        return;
    }
  }
}
