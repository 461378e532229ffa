/**
 * One pane inside a shard: its PTY, its terminal emulator and its compact
 * history, and the pump that moves bytes from the first to the second.
 */
import * as pty from 'node-pty';
import xtermHeadless from '@xterm/headless';
import type { IBufferCell } from '@xterm/headless';
import { keyBytes } from '../protocol/keys.js';
import type { InputParams, ReadParams, ReadResult, SpawnParams } from '../protocol/thread.js';
import {
  EMULATOR_SCROLLBACK_ROWS,
  HARVEST_AT_ROWS,
  HIGH_WATER_BYTES,
  HISTORY_ROWS,
  LOW_WATER_BYTES,
  rowSafeLength,
} from './flow.js';
import { EscapeState } from './escape-state.js';
import { History } from './history.js';
import { flatten, rowMayHaveStyle, styledRow } from './row-text.js';
import { readRecent, readVisible } from './screen-reader.js';

const { Terminal } = xtermHeadless;
type Terminal = InstanceType<typeof Terminal>;

/** CSI 3 J: erase saved lines. Written by us to drop rows moved to history. */
const ERASE_SAVED_LINES = '\x1b[3J';
const PASTE_START = '\x1b[200~';
const PASTE_END = '\x1b[201~';
/** How long a closed pane's processes get after SIGHUP before SIGKILL. */
export const KILL_GRACE_MS = 2000;

export interface PaneEvents {
  /** The screen changed (at most once between two `takeDirty` calls matters). */
  dirty(pane: Pane): void;
  exited(pane: Pane, exitCode: number, signal: number | undefined): void;
  /** The emulator parsed `bytes` more of the pane's output. */
  parsed(bytes: number): void;
}

export class Pane {
  readonly uid: number;
  readonly workspaceUid: number;
  readonly pid: number;
  revision = 0;
  title = '';
  bytesParsed = 0;
  /** Set once the process exited or the pane was closed. */
  ended = false;

  private readonly pty: pty.IPty;
  private readonly term: Terminal;
  private readonly history = new History(HISTORY_ROWS);
  private readonly cell: IBufferCell;
  private readonly queue: Uint8Array[] = [];
  private queueOffset = 0;
  private queuedBytes = 0;
  private writing = false;
  private paused = false;
  /** Emulator rows already copied to history whose erase is still queued. */
  private rowsAwaitingErase = 0;
  /** Our own CSI 3 J writes not parsed yet (the program's own clear the history too). */
  private ownErasesPending = 0;
  private killTimer: NodeJS.Timeout | undefined;
  /** Where the parser is in the program's escape sequences (our erase goes only between them). */
  private readonly escapes = new EscapeState();

  constructor(spec: SpawnParams, private readonly events: PaneEvents) {
    this.uid = spec.paneUid;
    this.workspaceUid = spec.workspaceUid;
    this.term = new Terminal({
      cols: spec.cols,
      rows: spec.rows,
      scrollback: EMULATOR_SCROLLBACK_ROWS,
      allowProposedApi: true,
    });
    this.cell = this.term.buffer.normal.getNullCell();
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

    // node-pty with `encoding: null` delivers Buffers; its typings say string.
    this.pty.onData((data: unknown) => this.enqueue(data as Uint8Array));
    this.pty.onExit(({ exitCode, signal }) => this.onProcessExit(exitCode, signal));
    // Replies the emulator owes the program (cursor position, device attributes).
    this.term.onData((reply) => {
      if (!this.ended) this.pty.write(reply);
    });
    this.term.onWriteParsed(() => {
      this.revision++;
      this.events.dirty(this);
    });
    this.term.onTitleChange((title) => {
      this.title = title;
      this.events.dirty(this);
    });
    this.term.parser.registerCsiHandler({ final: 'J' }, (params) => {
      if (params[0] === 3) {
        if (this.ownErasesPending > 0) this.ownErasesPending--;
        else this.history.clear();
      }
      return false; // let xterm erase as usual
    });
  }

  get cols(): number {
    return this.term.cols;
  }

  get rows(): number {
    return this.term.rows;
  }

  read(params: ReadParams): ReadResult {
    const withStyle = !params.stripAnsi;
    if (params.source === 'visible') {
      return { text: readVisible(this.term, withStyle, this.cell), revision: this.revision, truncated: false };
    }
    const { text, truncated } = readRecent(
      this.term,
      this.history,
      this.rowsAwaitingErase,
      params.lines,
      withStyle,
      this.cell,
    );
    return { text, revision: this.revision, truncated };
  }

  /** Text, then keys, in one PTY write (keys in the form the program asked for). */
  input(params: InputParams): void {
    const modes = this.term.modes;
    let text = params.text;
    if (params.paste && modes.bracketedPasteMode && /[\r\n]/.test(text)) text = PASTE_START + text + PASTE_END;
    for (const key of params.keys) text += keyBytes(key, modes.applicationCursorKeysMode);
    if (text.length > 0) this.pty.write(text);
  }

  resize(cols: number, rows: number): void {
    this.pty.resize(cols, rows);
    this.term.resize(cols, rows);
    this.events.dirty(this);
  }

  /** SIGHUP to the pane's process group (as a closing terminal would), SIGKILL after a grace. */
  close(): void {
    if (this.ended) return;
    this.signalGroup('SIGHUP');
    this.killTimer = setTimeout(() => this.signalGroup('SIGKILL'), KILL_GRACE_MS);
    this.killTimer.unref();
  }

  private signalGroup(signal: NodeJS.Signals): void {
    for (const target of [-this.pid, this.pid]) {
      try {
        process.kill(target, signal);
      } catch {
        // already gone
      }
    }
  }

  private onProcessExit(exitCode: number, signal: number | undefined): void {
    if (this.killTimer) clearTimeout(this.killTimer);
    this.ended = true;
    this.events.exited(this, exitCode, signal === 0 ? undefined : signal);
    this.term.dispose();
  }

  private enqueue(data: Uint8Array): void {
    if (this.ended) return;
    this.queue.push(data);
    this.queuedBytes += data.length;
    if (!this.paused && this.queuedBytes > HIGH_WATER_BYTES) {
      this.paused = true;
      this.pty.pause();
    }
    if (!this.writing) this.pump();
  }

  /** Feeds the next bounded slice of the queue to the emulator; one write in flight at a time. */
  private pump(): void {
    const head = this.queue[0];
    if (!head || this.ended) {
      this.writing = false;
      return;
    }
    this.writing = true;
    const spare = EMULATOR_SCROLLBACK_ROWS - this.term.buffer.normal.baseY;
    const length = Math.max(1, rowSafeLength(head, this.queueOffset, spare, this.term.cols));
    const slice = head.subarray(this.queueOffset, this.queueOffset + length);
    this.queueOffset += length;
    if (this.queueOffset >= head.length) {
      this.queue.shift();
      this.queueOffset = 0;
    }
    this.term.write(slice, () => this.afterWrite(slice));
  }

  private afterWrite(slice: Uint8Array): void {
    const length = slice.length;
    this.escapes.feed(slice);
    this.bytesParsed += length;
    this.events.parsed(length);
    this.queuedBytes -= length;
    if (this.paused && this.queuedBytes < LOW_WATER_BYTES && !this.ended) {
      this.paused = false;
      this.pty.resume();
    }
    const harvestable = this.term.buffer.active.type === 'normal' && !this.escapes.inSequence;
    if (harvestable && this.term.buffer.normal.baseY >= HARVEST_AT_ROWS) {
      this.harvest();
    } else {
      this.pump();
    }
  }

  /** Moves the emulator's scrollback rows into history, then erases them from the emulator. */
  private harvest(): void {
    const buffer = this.term.buffer.normal;
    const count = buffer.baseY;
    for (let y = 0; y < count; y++) {
      const line = buffer.getLine(y);
      if (!line) continue;
      const text = flatten(line.translateToString(true));
      const styled = rowMayHaveStyle(line) ? styledRow(line, text, this.cell) : text;
      this.history.push(text, styled === text ? undefined : styled, line.isWrapped);
    }
    this.rowsAwaitingErase = count;
    this.ownErasesPending++;
    this.term.write(ERASE_SAVED_LINES, () => {
      this.rowsAwaitingErase = 0;
      this.pump();
    });
  }
}
