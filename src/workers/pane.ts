/**
 * One pane inside a shard: its PTY, its terminal emulator and its history.
 * Output is parsed as it is read (a flooding program's reads gathered into
 * larger pieces first, output-coalescer.ts) by output-parser.ts.
 */
import * as pty from 'node-pty';
import type { IBufferCell } from '@xterm/headless';
import { ProtocolError } from '../protocol/errors.js';
import { keyBytes } from '../protocol/keys.js';
import type { BlockRef, InputParams, MenuOnScreen, PaneNotification, PaneScreen, PaneTerminalState, ReadParams, ReadResult, SelectionParams, SelectionResult, SpawnParams } from '../protocol/thread.js';
import { lineMode } from '../os/tty-modes.js';
import { KILL_GRACE_MS, PANE_MARK_ENV, endPaneSoon, killPanes } from '../os/pane-processes.js';
import type { Emulator } from './emulator.js';
import { History } from './history.js';
import { KittyKeyboard } from './kitty-keyboard.js';
import { readRecent, readVisible, visibleWithLooks } from './screen-reader.js';
import { VisibleText } from './visible-text.js';
import { readSelection } from './selection-reader.js';
import { menuOnScreen } from './menu-answer.js';
import { OutputCoalescer } from './output-coalescer.js';
import type { OutputParser } from './output-parser.js';
import { createParsing } from './parsing.js';
import { PtyInput } from './pty-input.js';
import { readTailAtEnd } from './pty-tail.js';
import type { ScrollbackCapture } from './scrollback-capture.js';
import { type ScrollMetrics, type ScrollMove, ScrollView } from './scroll-view.js';
import { serializeScreen } from './screen-redraw.js';
import type { RestoredRows } from './persistence/restore-rows.js';
import { packScreen } from './persistence/screen-rows.js';
import type { ProgramStatus } from './signals/program-status.js';
import { TerminalSignals } from './signals/terminal-signals.js';
import { MAX_REPEAT_ROWS } from './write-sizing.js';

export const HISTORY_ROWS = 10_000;
/** Longer window titles are cut (OSC 0/2 of megabytes reach pane_info otherwise). */
export const MAX_TITLE_CHARS = 1024;
const PASTE_START = '\x1b[200~';
const PASTE_END = '\x1b[201~';

export interface PaneEvents {
  /** The pane's output changed its screen (called once per PTY read). */
  dirty(pane: Pane): void;
  /** A fact other than the screen changed (the title). */
  factsChanged(pane: Pane): void;
  exited(pane: Pane, exitCode: number, signal: number | undefined): void;
  /** The emulator parsed `bytes` more of the pane's output. */
  parsed(bytes: number): void;
  /** The program's own status sequence (OSC 7501), or a terminal reset ending it. */
  status(pane: Pane, status: ProgramStatus): void;
  /** The shell finished a command (OSC 133 D). */
  commandFinished(pane: Pane, exitCode: number): void;
  notification(pane: Pane, notification: PaneNotification): void;
  /** A streamed pane's output chunk (`seq` counts the stream's items), called after it was parsed. */
  output(pane: Pane, seq: number, chunk: Uint8Array): void;
  /** A streamed pane took a new size. */
  resized(pane: Pane, seq: number): void;
}

export class Pane {
  readonly uid: number;
  readonly workspaceUid: number;
  readonly pid: number;
  /** The mark every process started here inherits (os/pane-processes.ts); '' when the spawn had none. */
  readonly mark: string;
  revision = 0;
  title = '';
  bytesParsed = 0;
  /** Set once the process exited or the pane was closed. */
  ended = false;
  private closing = false;
  /** Open `pane.stream`s: output is handed on only while there are some, so panes nobody streams pay nothing. */
  private streams = 0;
  /** The last stream item's number (screens say which items they include). */
  private streamSeq = 0;
  /** `revision` when the last session snapshot took this pane (-1: never): an unchanged pane is not taken again. */
  persistedRevision = -1;
  /** When its terminal state last went to a snapshot round, and how many bytes it had parsed by then. */
  persisted: { at: number; bytesParsed: number } = { at: Number.NEGATIVE_INFINITY, bytesParsed: 0 };

  private readonly pty: pty.IPty;
  /** Every byte to the program goes through here, never node-pty's own write (pty-input.ts). */
  private readonly ptyInput: PtyInput;
  private readonly term: Emulator;
  private readonly history = new History(HISTORY_ROWS);
  private readonly capture: ScrollbackCapture;
  private readonly parser: OutputParser;
  private readonly output = new OutputCoalescer((data) => this.feed(data));
  private readonly cell: IBufferCell;
  private readonly signals: TerminalSignals;
  private readonly kitty: KittyKeyboard;
  /** Where a client scrolled the view to (`pane.scroll`); `visible` reads show that view. */
  private readonly view: ScrollView;
  /** The screen's plain text for the agent checks, re-read only where it changed. */
  private readonly detectionText: VisibleText;

  constructor(spec: SpawnParams, private readonly events: PaneEvents, restored?: RestoredRows) {
    this.uid = spec.paneUid;
    this.workspaceUid = spec.workspaceUid;
    if (restored) {
      // The old history, the old screen, then the marker: the new process's output comes below them.
      this.history.load(restored.blocks, restored.firstRow, restored.tail);
      if (restored.screen) this.history.pushRows(restored.screen);
      this.history.push(Buffer.from(restored.marker, 'utf8'), undefined, false);
    }
    ({ term: this.term, cell: this.cell, capture: this.capture, parser: this.parser } = createParsing(spec.cols, spec.rows, this.history));
    this.view = new ScrollView(this.term, this.history);
    this.detectionText = new VisibleText(this.term);
    const [file, ...args] = spec.argv;
    this.pty = pty.spawn(file ?? '/bin/sh', args, {
      name: spec.env.TERM ?? 'xterm-256color',
      cols: spec.cols,
      rows: spec.rows,
      cwd: spec.cwd,
      env: spec.env,
      encoding: null,
    });
    this.pid = this.pty.pid;
    this.mark = spec.env[PANE_MARK_ENV] ?? '';
    this.ptyInput = new PtyInput(this.pty);

    // node-pty with `encoding: null` delivers Buffers; its typings say string.
    this.pty.onData((data: unknown) => this.output.push(data as Uint8Array));
    readTailAtEnd(this.pty, (data) => this.output.push(data));
    this.pty.onExit(({ exitCode, signal }) => this.onProcessExit(exitCode, signal));
    // Replies the emulator owes the program (cursor position, device attributes).
    this.term.onData((reply) => this.reply(reply));
    this.signals = new TerminalSignals(this.term, {
      status: (status) => this.events.status(this, status),
      commandFinished: (exitCode) => this.events.commandFinished(this, exitCode),
      notification: (notification) => this.events.notification(this, notification),
      answer: (bytes) => this.reply(bytes),
    });
    this.kitty = new KittyKeyboard(this.term, (bytes) => this.reply(bytes));
    this.term.onTitleChange((title) => {
      // A title is a line of text; a program printing megabytes of it must not make every pane_info that big.
      this.title = title.length <= MAX_TITLE_CHARS ? title : title.slice(0, MAX_TITLE_CHARS);
      this.events.factsChanged(this);
    });
    this.registerHandlers();
  }

  get cols(): number {
    return this.term.cols;
  }

  get rows(): number {
    return this.term.rows;
  }

  /** Whether the program in front reads keys: its terminal out of canonical mode (os/tty-modes.ts); undefined when unknown. */
  readsKeys(): boolean | undefined {
    if (!this.ptyInput.open) return undefined;
    const mode = lineMode(this.ptyInput.fd);
    return mode === undefined ? undefined : !mode.canonical;
  }

  /** The program is drawing a frame under synchronized output (DEC mode 2026, begun and not yet ended). */
  get drawingFrame(): boolean {
    return this.term.modes.synchronizedOutputMode;
  }

  /** Parses the output read but not parsed yet, so that a client's read sees everything the program wrote. */
  catchUp(): void {
    this.output.drain();
  }

  /** The screen or recent rows as parsed so far (a client's read calls `catchUp` first). */
  read(params: ReadParams): ReadResult {
    const withStyle = !params.stripAnsi;
    switch (params.source) {
      case 'visible':
        return { text: this.view.read(withStyle, this.cell) ?? readVisible(this.term, withStyle, this.cell), revision: this.revision, truncated: false };
      // What the agent checks read (shard-runtime.ts): the screen as plain text, whatever the format.
      case 'detection':
        return { text: this.detectionText.read(this.revision), revision: this.revision, truncated: false };
      case 'recent':
      case 'recent_unwrapped': {
        const { text, truncated } = readRecent(this.term, this.history, params.lines, withStyle, this.cell, params.source === 'recent_unwrapped');
        return { text, revision: this.revision, truncated };
      }
    }
  }

  /** The view's scroll position now (everything read so far included). */
  get scroll(): ScrollMetrics {
    return this.view.metrics();
  }

  /** Moves the view over the history (`pane.scroll`); whether it moved. */
  scrollView(move: ScrollMove): boolean {
    this.catchUp();
    return this.view.move(move);
  }

  /** The text between two cells as parsed so far (a client's selection calls `catchUp` first). */
  selection(params: SelectionParams): SelectionResult {
    return { ...readSelection(this.term, this.history, params.start, params.end, params.block), revision: this.revision };
  }

  /** The screen as plain text, everything read so far included (a menu is looked for in it). */
  visibleText(): string {
    this.catchUp();
    return this.detectionText.read(this.revision);
  }

  /** The menu on the screen now, everything read so far included, a row of buttons' selection told by its colours. */
  menu(): MenuOnScreen {
    this.catchUp();
    const { text, look } = visibleWithLooks(this.term, this.cell);
    return menuOnScreen(text, look);
  }

  /** The screen now, everything read so far included, and where it sits in the stream. */
  screen(): PaneScreen {
    this.catchUp();
    return { cols: this.term.cols, rows: this.term.rows, redraw: serializeScreen(this.term), seq: this.streamSeq };
  }

  /** A stream opens: its screen first; output and resizes are handed on from here. */
  openStream(): PaneScreen {
    const screen = this.screen();
    this.streams++;
    return screen;
  }

  closeStream(): void {
    this.streams = Math.max(0, this.streams - 1);
  }

  /** What a session snapshot keeps of the terminal (everything read so far included); full history blocks go to `store`, uncompressed unless `compress`; the screen and last block come back compressed. `now`: the round's time. */
  terminalState(store: (packed: Buffer) => BlockRef, rewrite: boolean, compress: boolean, now: number): Omit<PaneTerminalState, 'cwd'> {
    this.catchUp();
    this.persistedRevision = this.revision;
    this.persisted = { at: now, bytesParsed: this.bytesParsed };
    return { paneUid: this.uid, history: this.history.state(store, rewrite, compress), screen: packScreen(this.term, this.cell) };
  }

  /** Bytes its history holds: open rows and packed forms. */
  get historyBytes(): number {
    return this.history.bytes;
  }

  /** Keeps its full history blocks packed and compressed only (history.ts); how many it sealed. */
  sealHistory(): number {
    return this.history.seal();
  }

  /** Some of its history blocks went to disk uncompressed (a busy round); a quiet one compresses them. */
  get hasUncompressedBlocks(): boolean {
    return this.history.hasUncompressedBlocks;
  }

  /** Bytes of this pane's history in block files. */
  get storedBytes(): number {
    return this.history.storedBytes;
  }

  /** Text, then keys, in one PTY write (keys in the form the program asked for). */
  input(params: InputParams): void {
    const modes = this.term.modes;
    let text = params.text;
    const wrap = params.paste === 'always' ? text.length > 0 : params.paste && /[\r\n]/.test(text);
    if (wrap && modes.bracketedPasteMode) text = PASTE_START + text + PASTE_END;
    for (const key of params.keys) text += keyBytes(key, modes.applicationCursorKeysMode, this.kitty.flags);
    if (text.length > 0) this.ptyInput.write(text);
  }

  resize(cols: number, rows: number): void {
    // What was read so far was written for the old size.
    this.catchUp();
    const widthChanged = cols !== this.term.cols;
    const baseBefore = this.term.buffer.normal.baseY;
    try {
      // node-pty resizes by fd number: never once the terminal closed and the number may be another's (pty-input.ts).
      if (!this.ptyInput.open) throw new Error('closed');
      this.pty.resize(cols, rows);
    } catch {
      // The terminal is already closed: the program exited and its exit is on its way.
      throw new ProtocolError('pane_not_found', 'the pane has exited');
    }
    this.term.resize(cols, rows);
    this.detectionText.invalidate();
    this.capture.resized(baseBefore, widthChanged);
    if (this.streams > 0) this.events.resized(this, ++this.streamSeq);
    this.revision++;
    this.events.dirty(this);
  }

  /**
   * Ends the pane's processes (src/os/pane-processes.ts): SIGHUP to its process session
   * and SIGTERM to what carries its mark (daemons it started) at the end of this turn,
   * with every other pane ending in it; then SIGKILL to its foreground and its marked
   * processes after the grace (kept even if the shell exits first, for members of its
   * group that ignore the hangup).
   */
  close(): void {
    if (this.ended || this.closing) return;
    this.closing = true;
    endPaneSoon(this.pid, this.mark);
    setTimeout(() => killPanes([this.pid]), KILL_GRACE_MS).unref();
  }

  /**
   * Parses output now. While this runs the shard reads nothing, so a
   * flooding program blocks in write(2): that is the flow control.
   */
  private feed(chunk: Uint8Array): void {
    if (this.ended) return;
    this.signals.beforeParse(chunk);
    try {
      this.parser.feed(chunk);
    } catch (error) {
      // The emulator must never take the shard down; what it could not parse is lost, the pane goes on.
      process.emitWarning(`pane ${this.uid}: the emulator failed on output: ${String(error)}`);
    }
    this.signals.parsed(chunk[chunk.length - 1]);
    this.bytesParsed += chunk.length;
    if (this.streams > 0) this.events.output(this, ++this.streamSeq, chunk);
    this.revision++;
    this.events.parsed(chunk.length);
    this.events.dirty(this);
  }

  private registerHandlers(): void {
    const parser = this.term.parser;
    // A program's own CSI 3 J (`clear`) erases the history too, as it erases a terminal's scrollback.
    parser.registerCsiHandler({ final: 'J' }, (params) => {
      if (params[0] === 3) {
        this.history.clear();
        this.view.reset();
      }
      return false; // xterm erases as usual
    });
    // A full reset replaces xterm's buffers: copy what scrolled off before it goes.
    parser.registerEscHandler({ final: 'c' }, () => {
      this.capture.collect();
      this.capture.forget();
      return false;
    });
    // A REP of more rows than a write may add is dropped (write-sizing.ts).
    parser.registerCsiHandler({ final: 'b' }, (params) => {
      const count = typeof params[0] === 'number' ? params[0] : 1;
      return count > MAX_REPEAT_ROWS * this.term.cols;
    });
  }

  /** Bytes the terminal owes the program (query answers); lost if it is gone or not reading. */
  private reply(bytes: string): void {
    try {
      this.ptyInput.write(bytes);
    } catch {
      // nobody to answer
    }
  }

  private onProcessExit(exitCode: number, signal: number | undefined): void {
    this.ptyInput.dispose();
    // The shell is gone: like a terminal closing after it, hang up the jobs it left behind, and end its daemons.
    if (!this.closing) endPaneSoon(this.pid, this.mark);
    this.catchUp();
    this.output.dispose();
    this.ended = true;
    this.events.exited(this, exitCode, signal === 0 ? undefined : signal);
    this.term.dispose();
  }
}
