/**
 * The sequences a pane's program sends to its terminal rather than to the
 * screen (docs/protocol.md §10.6): its status (OSC 7501), shell integration
 * (OSC 133) and notifications (BEL, OSC 9, 777, 99). Hooked into the pane's
 * emulator parser, so they are read exactly as the emulator reads them.
 */
import type { Terminal } from '@xterm/headless';
import type { PaneNotification } from '../../protocol/thread.js';
import { KittyNotifications, RateLimit, osc777Notification, osc9Notification } from './notifications.js';
import { type ProgramStatus, STATUS_OSC, isStatusQuery, parseProgramStatus } from './program-status.js';
import { SHELL_INTEGRATION_OSC, ShellIntegration } from './shell-integration.js';

export interface SignalListener {
  status(status: ProgramStatus): void;
  commandFinished(exitCode: number): void;
  notification(notification: PaneNotification): void;
  /** Bytes the terminal owes the program (the answer to a status query). */
  answer(bytes: string): void;
}

const ESC = 0x1b;
const STATUS_QUERY = `\x1b]${STATUS_OSC};?`;
const STATUS_QUERY_BYTES = Buffer.from(STATUS_QUERY, 'latin1');
const BEL = 0x07;

export class TerminalSignals {
  /** A status query was parsed; its answer waits to learn the terminator it used. */
  private queryPending = false;
  /** The terminators of the status queries in the piece being parsed, in order, found before it is parsed. */
  private readonly queryTerminators: string[] = [];
  private readonly shell = new ShellIntegration();
  private readonly kitty = new KittyNotifications();
  private readonly rate = new RateLimit();

  constructor(term: Terminal, private readonly listener: SignalListener) {
    const parser = term.parser;
    parser.registerOscHandler(STATUS_OSC, (data) => {
      if (isStatusQuery(data)) {
        // Answered now when the piece showed its terminator: before the program's next query (its DA1
        // to end a round of probes, claude's) is answered, or it takes the status for unsupported.
        const terminator = this.queryTerminators.shift();
        if (terminator === undefined) this.queryPending = true;
        else this.listener.answer(STATUS_QUERY + terminator);
      } else {
        const status = parseProgramStatus(data);
        if (status) listener.status(status);
      }
      return true;
    });
    // xterm ends an OSC at the ESC of `ESC \`, then dispatches `\` as an escape: the query used ST.
    parser.registerEscHandler({ final: '\\' }, () => {
      if (this.queryPending) this.answerQuery('\x1b\\');
      return false;
    });
    // A full reset ends a program's status like any other terminal state.
    parser.registerEscHandler({ final: 'c' }, () => {
      this.listener.status({ state: 'clear' });
      return false;
    });
    parser.registerOscHandler(SHELL_INTEGRATION_OSC, (data) => {
      const exitCode = this.shell.accept(data);
      if (exitCode !== undefined) listener.commandFinished(exitCode);
      return true;
    });
    parser.registerOscHandler(9, (data) => this.notify(osc9Notification(data)));
    parser.registerOscHandler(777, (data) => this.notify(osc777Notification(data)));
    parser.registerOscHandler(99, (data) => this.notify(this.kitty.accept(data)));
    term.onBell(() => this.notify({ notification: 'bell' }));
  }

  /** Before a piece of output is parsed: the terminators of the status queries it holds whole. */
  beforeParse(chunk: Uint8Array): void {
    this.queryTerminators.length = 0;
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    for (let at = bytes.indexOf(STATUS_QUERY_BYTES); at >= 0; at = bytes.indexOf(STATUS_QUERY_BYTES, at + 1)) {
      const end = at + STATUS_QUERY_BYTES.length;
      if (bytes[end] === BEL) this.queryTerminators.push('\x07');
      else if (bytes[end] === ESC && bytes[end + 1] === 0x5c) this.queryTerminators.push('\x1b\\');
      else break; // split across pieces: the deferred answer below learns it
    }
  }

  /** After each piece of output is parsed: a pending query ended with BEL, unless the piece stopped between ESC and `\`. */
  parsed(lastByte: number | undefined): void {
    if (this.queryPending && lastByte !== ESC) this.answerQuery('\x07');
  }

  private answerQuery(terminator: string): void {
    this.queryPending = false;
    this.listener.answer(STATUS_QUERY + terminator);
  }

  private notify(notification: PaneNotification | undefined): boolean {
    if (notification && this.rate.allow(performance.now())) this.listener.notification(notification);
    return true;
  }
}
