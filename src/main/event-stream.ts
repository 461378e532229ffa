/**
 * One `events.subscribe` connection: events queue until the ack is written,
 * then go out in order. A client that stops reading is cut off once its
 * unread backlog passes STREAM_BACKLOG_BYTES (docs/protocol.md §9.4): it gets a final
 * `subscription_overflow` line and the connection closes, so a slow reader
 * never grows the server's memory without bound.
 */
import type { EventLine } from '../protocol/events.js';
import type { Connection } from './connection.js';
import { wireJson } from './wire-json.js';

export const STREAM_BACKLOG_BYTES = 1024 * 1024;

export class EventStream {
  private live = false;
  private closed = false;
  private readonly queued: EventLine[] = [];
  private lastSentSeq = 0;
  private readonly disposers: Array<() => void> = [];

  constructor(private readonly connection: Connection) {
    // A client may be gone before its subscription was even set up.
    if (connection.signal.aborted) this.close();
    else connection.signal.addEventListener('abort', () => this.close(), { once: true });
  }

  /** Runs when the stream ends (client gone or cut off). */
  onClose(dispose: () => void): void {
    if (this.closed) dispose();
    else this.disposers.push(dispose);
  }

  send(line: EventLine): void {
    if (this.closed) return;
    if (this.live) this.write(line);
    else this.queued.push(line);
  }

  /** The ack is out: everything queued so far, then live. */
  start(): void {
    this.live = true;
    for (const line of this.queued.splice(0)) this.write(line);
  }

  private write(line: EventLine): void {
    if (this.closed) return;
    if (this.connection.unsentBytes > STREAM_BACKLOG_BYTES) return this.overflow();
    this.connection.sendRaw(`${wireJson(line, this.connection.dialect)}\n`);
    this.lastSentSeq = line.seq ?? this.lastSentSeq;
  }

  private overflow(): void {
    const notice: EventLine = { event: 'subscription_overflow', data: { dropped_after_seq: this.lastSentSeq } };
    this.connection.sendRaw(`${JSON.stringify(notice)}\n`);
    this.connection.end(); // destroyed after its grace should the client not close
    this.close();
  }

  private close(): void {
    if (this.closed) return;
    this.closed = true;
    this.queued.length = 0;
    for (const dispose of this.disposers.splice(0)) dispose();
  }
}
