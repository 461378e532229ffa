/**
 * One `pane.stream` of a page's: its ack and notices go to the page as JSON,
 * its output to the page's OutputPacer (binary, paced, or as it comes when
 * `live`). A page that falls behind holds the stream back (output-pacer.ts).
 */
import type { Dialer } from '../client/transport.js';
import { PaneOutputStream } from '../client/pane-output-stream.js';
import { apiErrorOf } from './api-error.js';
import type { OutputPacer } from './output-pacer.js';
import type { ServerMessage, StreamNotice } from './wire.js';

export interface StreamPage {
  send(message: ServerMessage): void;
  readonly pacer: OutputPacer;
}

export interface TileStreamOptions {
  dialer: Dialer;
  pane: string;
  live: boolean;
  look: boolean;
  /** The stream ended, for whatever reason: forget it. */
  onEnd: () => void;
}

export class TileStream {
  private stream: PaneOutputStream | undefined;
  private closed = false;

  constructor(
    readonly id: number,
    private readonly page: StreamPage,
    private readonly options: TileStreamOptions,
  ) {}

  start(): void {
    void this.run();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.stream?.close();
    this.page.pacer.forget(this.id);
  }

  private async run(): Promise<void> {
    const { dialer, pane, look, live } = this.options;
    const { pacer } = this.page;
    let exited = false;
    try {
      this.stream = await PaneOutputStream.open(dialer, pane, { id: `web:${this.id}`, look });
      if (this.closed) return this.stream.close();
      this.notice({ event: 'stream_started', ...this.stream.started });
      for await (const line of this.stream) {
        if (this.closed) break;
        if (line.event === 'pane.output') {
          pacer.add(this.id, Buffer.from(line.data.bytes, 'base64'), live);
          if (pacer.full) await pacer.drained();
          continue;
        }
        pacer.flushStream(this.id);
        this.notice(line);
        exited ||= line.event === 'pane.exited';
      }
      pacer.flushStream(this.id);
      if (!this.closed && !exited) this.notice({ event: 'stream_failed', error: { code: 'server_unreachable', message: 'the stream ended' } });
    } catch (error) {
      if (!this.closed) this.notice({ event: 'stream_failed', error: apiErrorOf(error) });
    } finally {
      this.close();
      this.options.onEnd();
    }
  }

  private notice(notice: StreamNotice): void {
    this.page.send({ t: 'stream', id: this.id, notice });
  }
}
