/**
 * An xterm.js terminal fed by one pane's `pane.stream`: the ack's snapshot
 * redraws the screen, output is written as it comes, resizes and resyncs are
 * followed. Tiles and the large pane are both one of these. A stream that
 * failed while still wanted (herdr web restarted, the connection dropped) is
 * opened again after a moment; its ack redraws the screen.
 */
import { Unicode11Addon } from '@xterm/addon-unicode11';
import { Terminal } from '@xterm/xterm';
import type { StreamNotice } from '../wire.js';
import type { Link } from './link.js';

const RETRY_MS = 2000;

export interface StreamTarget {
  host: string;
  pane: string;
}

export interface StreamedTerminalEvents {
  /** The pane's size changed (or the stream began): the terminal is now cols × rows. */
  resized?(cols: number, rows: number): void;
  exited?(): void;
  failed?(message: string): void;
}

export class StreamedTerminal {
  readonly term: Terminal;
  private streamId: number | undefined;
  private target: StreamTarget | undefined;
  private retry: number | undefined;

  constructor(
    private readonly link: Link,
    /** fontSize: for a terminal xterm.js draws (the large pane); tiles paint their own. */
    private readonly options: { live: boolean; look: boolean; input: boolean; fontSize?: number },
    private readonly events: StreamedTerminalEvents = {},
  ) {
    this.term = new Terminal({
      fontSize: options.fontSize ?? 14,
      scrollback: options.live ? 1000 : 0,
      disableStdin: !options.input,
      cursorBlink: false,
      // For the Unicode handling only: the widths the server's emulator uses (an emoji takes two columns).
      allowProposedApi: true,
      fontFamily: 'ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace',
      theme: { background: '#0d1117', foreground: '#d6dde6' },
    });
    this.term.loadAddon(new Unicode11Addon());
    this.term.unicode.activeVersion = '11';
  }

  /** Starts streaming the pane (again, after a detach). */
  attach(target: StreamTarget): void {
    this.target = target;
    if (this.streamId !== undefined) return;
    const { live, look } = this.options;
    this.streamId = this.link.stream(target.host, target.pane, { notice: (notice) => this.notice(notice), output: (bytes) => this.term.write(bytes) }, { live, look });
    if (this.streamId === undefined) this.retryLater();
  }

  /** Stops streaming; the last picture stays. */
  detach(): void {
    this.target = undefined;
    window.clearTimeout(this.retry);
    if (this.streamId !== undefined) this.link.unstream(this.streamId);
    this.streamId = undefined;
  }

  get attached(): boolean {
    return this.streamId !== undefined;
  }

  /** The screen's lines as text (the menu parser and tests read them). */
  lines(): string[] {
    const buffer = this.term.buffer.active;
    const lines: string[] = [];
    for (let y = 0; y < this.term.rows; y++) lines.push(buffer.getLine(buffer.viewportY + y)?.translateToString(true) ?? '');
    return lines;
  }

  dispose(): void {
    this.detach();
    this.term.dispose();
  }

  private notice(notice: StreamNotice): void {
    switch (notice.event) {
      case 'stream_started':
        return this.redraw(notice.cols, notice.rows, notice.snapshot);
      case 'pane.resync':
        return this.redraw(notice.data.cols, notice.data.rows, notice.data.snapshot);
      case 'pane.resized':
        this.term.resize(notice.data.cols, notice.data.rows);
        this.events.resized?.(notice.data.cols, notice.data.rows);
        return;
      case 'pane.exited':
        this.streamId = undefined;
        this.events.exited?.();
        return;
      case 'stream_failed':
        this.streamId = undefined;
        this.events.failed?.(notice.error.message);
        if (notice.error.code !== 'pane_not_found') this.retryLater();
        return;
    }
  }

  private redraw(cols: number, rows: number, snapshot: string): void {
    this.term.reset();
    this.term.resize(cols, rows);
    this.term.write(snapshot);
    this.events.resized?.(cols, rows);
  }

  private retryLater(): void {
    window.clearTimeout(this.retry);
    this.retry = window.setTimeout(() => {
      if (this.target && this.streamId === undefined) this.attach(this.target);
    }, RETRY_MS);
  }
}
