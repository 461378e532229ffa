/**
 * `run_command`'s view of a pane while its command runs: the pane's bytes as `pane.stream`
 * sends them, the marks that begin and end the command found in them, and what lies between
 * drawn by a terminal emulator of the pane's width into text, as `pane.read` gives it.
 *
 * The marks are escape sequences a terminal does not draw: the shell's own OSC 133 `C` (the
 * output starts) and `D;<exit code>` (it finished), or run_command's OSC 7502 marks where the
 * shell has no integration (src/mcp/run-command.ts). So nothing of them is on the screen a
 * person watches, and the output is found without reading the screen for a marker line.
 */
import unicode11 from '@xterm/addon-unicode11';
import xtermHeadless from '@xterm/headless';

const { Terminal } = xtermHeadless;
const { Unicode11Addon } = unicode11;
type Emulator = InstanceType<typeof Terminal>;

/**
 * What a mark says: the command's output starts here, the command ended here with an exit code,
 * or the shell's next prompt is drawn and it reads input again (OSC 133 `B`).
 */
export type Mark = { kind: 'start' } | { kind: 'end'; exitCode: number | null } | { kind: 'ready' };

/** Reads an OSC's payload (what lies between `ESC ]` and its terminator): a mark, or not one. */
export type MarkReader = (payload: string) => Mark | undefined;

const ESC = 0x1b;
const BEL = 0x07;
const RIGHT_BRACKET = 0x5d;
const BACKSLASH = 0x5c;
const NEWLINE = 0x0a;
/** An OSC whose payload is longer than this is no mark (a hyperlink, a clipboard copy): it is passed on. */
const MAX_MARK_BYTES = 256;

/**
 * Finds the OSC sequences in a byte stream split anywhere, across chunks: a mark is handed to
 * `onMark` and taken out of the stream; every other byte goes to `sink`, in order.
 */
export class MarkScanner {
  private state: 'text' | 'esc' | 'osc' | 'oscEsc' = 'text';
  private payload: number[] = [];

  constructor(
    private readonly read: MarkReader,
    private readonly sink: (bytes: Uint8Array) => void,
    private readonly onMark: (mark: Mark) => void,
  ) {}

  feed(chunk: Uint8Array): void {
    let at = 0;
    let run = 0; // where the plain bytes not yet handed on begin (state text)
    while (at < chunk.length) {
      if (this.state === 'text') {
        const esc = chunk.indexOf(ESC, at);
        if (esc < 0) break;
        if (esc > run) this.sink(chunk.subarray(run, esc));
        this.state = 'esc';
        at = esc + 1;
        continue;
      }
      const byte = chunk[at++] as number;
      if (this.state === 'esc') {
        if (byte === RIGHT_BRACKET) {
          this.state = 'osc';
          this.payload = [];
        } else {
          // Some other escape: the ESC goes on, and this byte is read again as text.
          this.sink(Uint8Array.of(ESC));
          this.state = 'text';
          at--;
        }
      } else if (this.state === 'osc') {
        if (byte === BEL) this.ended(Uint8Array.of(BEL));
        else if (byte === ESC) this.state = 'oscEsc';
        else if (this.payload.length < MAX_MARK_BYTES) this.payload.push(byte);
        else {
          this.passOn();
          at--;
        }
      } else if (byte === BACKSLASH) {
        this.ended(Uint8Array.of(ESC, BACKSLASH));
      } else {
        // An ESC inside an OSC ends it unterminated and begins an escape of its own.
        this.passOn();
        this.state = 'esc';
        at--;
      }
      if (this.state === 'text') run = at;
    }
    if (this.state === 'text' && run < chunk.length) this.sink(chunk.subarray(run));
  }

  /** The OSC ended with `terminator`: a mark, or a sequence passed on whole. */
  private ended(terminator: Uint8Array): void {
    const payload = Buffer.from(this.payload).toString('latin1');
    this.state = 'text';
    this.payload = [];
    const mark = this.read(payload);
    if (mark) this.onMark(mark);
    else this.sink(Buffer.concat([Uint8Array.of(ESC, RIGHT_BRACKET), Buffer.from(payload, 'latin1'), terminator]));
  }

  /** Too long or cut short to be a mark: what was held goes on as it came. */
  private passOn(): void {
    this.sink(Buffer.concat([Uint8Array.of(ESC, RIGHT_BRACKET), Uint8Array.from(this.payload)]));
    this.payload = [];
    this.state = 'text';
  }
}

/** The command's output, drawn. */
export interface Drawn {
  text: string;
  /** More lines than `lines`, or more than the emulator kept: the beginning is cut. */
  truncated: boolean;
}

/**
 * The output between the start mark and the end, in an emulator of the pane's size whose
 * history holds `lines` rows. Before a start mark, with `echoOf` (a shell's own integration,
 * which sends no `C` for a line it could not parse), everything after the typing is kept, and
 * the output is what follows the last line that shows the typed line: the error the shell
 * printed. (The line may show twice: echoed by the terminal before the shell's line editor
 * took over, then by the editor after its prompt.)
 */
export class OutputCapture {
  private term: Emulator | undefined;
  private started: 'no' | 'provisional' | 'mark' = 'no';
  private cut = false;

  constructor(
    private cols: number,
    private rows: number,
    private readonly lines: number,
    /** The line typed, where the output may have to be found after its echo. */
    private readonly echoOf: string | undefined,
  ) {
    if (echoOf !== undefined) this.begin('provisional');
  }

  /** Bytes the pane's program wrote, marks taken out. */
  write(bytes: Uint8Array): void {
    this.term?.write(Uint8Array.from(bytes));
  }

  /** The start mark: what came before it is not the command's. */
  start(): void {
    this.begin('mark');
  }

  resize(cols: number, rows: number): void {
    this.cols = cols;
    this.rows = rows;
    this.term?.resize(cols, rows);
  }

  /**
   * The stream fell behind and the server dropped output (docs/protocol.md §9.5): the output
   * so far is the screen as it is now, its beginning lost.
   */
  resync(cols: number, rows: number, snapshot: string): void {
    this.cols = cols;
    this.rows = rows;
    this.begin(this.started === 'mark' ? 'mark' : 'provisional');
    this.cut = true;
    this.term?.write(snapshot);
  }

  async drawn(): Promise<Drawn> {
    const term = this.term;
    if (!term) return { text: '', truncated: false };
    await new Promise<void>((resolve) => term.write('', resolve));
    const buffer = term.buffer.active;
    const logical: string[] = [];
    for (let y = 0; y < buffer.length; y++) {
      const line = buffer.getLine(y);
      if (!line) break;
      const continues = buffer.getLine(y + 1)?.isWrapped ?? false;
      const text = line.translateToString(!continues);
      if (line.isWrapped && logical.length > 0) logical[logical.length - 1] += text;
      else logical.push(text);
    }
    let trimmed = logical.map((text) => text.trimEnd());
    while (trimmed.length > 0 && trimmed.at(-1) === '') trimmed.pop();
    if (this.started === 'provisional' && this.echoOf !== undefined) {
      const echo = this.echoOf.trimEnd();
      let at = trimmed.length - 1;
      while (at >= 0 && !(trimmed[at] ?? '').endsWith(echo)) at--;
      trimmed = trimmed.slice(at + 1);
    }
    // The emulator's history was full: rows went before the first one left (and with them, maybe, the echo).
    const full = buffer.length >= this.rows + this.lines;
    const kept = trimmed.slice(-this.lines);
    term.dispose();
    this.term = undefined;
    return { text: kept.join('\n'), truncated: this.cut || full || kept.length < trimmed.length };
  }

  private begin(how: 'provisional' | 'mark'): void {
    this.term?.dispose();
    const term = new Terminal({ cols: this.cols, rows: this.rows, scrollback: this.lines, allowProposedApi: true, logLevel: 'off' });
    // Widths as the server's own emulator counts them (an emoji takes two columns).
    term.loadAddon(new Unicode11Addon());
    term.unicode.activeVersion = '11';
    this.term = term;
    this.started = how;
  }
}
