/**
 * Whether the emulator's parser is between escape sequences after the bytes
 * written so far. We inject our own `CSI 3 J` only then: injected into a
 * half-read sequence it would break the program's sequence (a lone ESC at the
 * end of one PTY read, `[2J` at the start of the next, showed up as text).
 */
const ESC = 0x1b;
const BEL = 0x07;
const CAN = 0x18;
const SUB = 0x1a;

const enum State {
  Ground,
  Escape,
  /** ESC followed by intermediate bytes (0x20–0x2f), waiting for the final byte. */
  EscapeIntermediate,
  Csi,
  /** OSC, DCS, SOS, PM, APC: until BEL or ST (ESC \). */
  String,
  StringEscape,
}

export class EscapeState {
  private state = State.Ground;

  get inSequence(): boolean {
    return this.state !== State.Ground;
  }

  /** Follows the parser over `data`. From ground, only the bytes from the last ESC can matter. */
  feed(data: Uint8Array): void {
    let start = 0;
    if (this.state === State.Ground) {
      start = data.lastIndexOf(ESC);
      if (start === -1) return;
    }
    for (let i = start; i < data.length; i++) this.step(data[i] ?? 0);
  }

  private step(byte: number): void {
    switch (this.state) {
      case State.Ground:
        if (byte === ESC) this.state = State.Escape;
        return;
      case State.Escape:
        if (byte === 0x5b) this.state = State.Csi;
        else if (byte === 0x5d || byte === 0x50 || byte === 0x58 || byte === 0x5e || byte === 0x5f) this.state = State.String;
        else if (byte >= 0x20 && byte <= 0x2f) this.state = State.EscapeIntermediate;
        else if (byte !== ESC) this.state = State.Ground;
        return;
      case State.EscapeIntermediate:
        if (byte === ESC) this.state = State.Escape;
        else if (byte >= 0x30 && byte <= 0x7e) this.state = State.Ground;
        return;
      case State.Csi:
        if (byte === ESC) this.state = State.Escape;
        else if ((byte >= 0x40 && byte <= 0x7e) || byte === CAN || byte === SUB) this.state = State.Ground;
        return;
      case State.String:
        if (byte === BEL || byte === CAN || byte === SUB) this.state = State.Ground;
        else if (byte === ESC) this.state = State.StringEscape;
        return;
      case State.StringEscape:
        // ST ends the string; any other byte after ESC starts a new escape, as in xterm.
        this.state = State.Escape;
        if (byte === 0x5c) this.state = State.Ground;
        else this.step(byte);
        return;
    }
  }
}
