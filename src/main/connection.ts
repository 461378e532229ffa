/**
 * One client connection: NDJSON framing with the limits of docs/protocol.md §1 (1 MiB
 * lines, 10 s to send a first line, 10 s to finish any line begun), and bounded
 * writes. It knows nothing of methods; complete lines go to `onLine`.
 *
 * A client may close its sending side once its request is written (`socat`,
 * `nc -N` and shell pipes do): what it sent is still answered, a last line
 * without its newline included, and the connection closes once nothing is
 * owed. Waits and event streams end there (`signal` aborts): a client gone for
 * good looks the same from here, and what nobody may be reading must not
 * linger; the wait's answer says why.
 */
import type { Socket } from 'node:net';
import type { Dialect } from '../protocol/dialect.js';
import { peerPid } from '../os/peer-process.js';
import { wireJson } from './wire-json.js';

export const MAX_LINE_BYTES = 1024 * 1024;
export const FIRST_LINE_TIMEOUT_MS = 10_000;
/** A line begun must be finished within this long (a kept-alive connection may idle between lines, not inside one). */
export const LINE_TIMEOUT_MS = 10_000;
/** How long a client gets to read our last bytes and close its side after we closed ours. */
const CLOSE_GRACE_MS = 5_000;
/** Above this many unsent bytes we stop reading the client's requests until it reads. */
const PAUSE_READING_ABOVE = 1024 * 1024;
/** A client this far behind on reading its responses is cut off. */
const MAX_UNSENT_BYTES = 64 * 1024 * 1024;

export interface ConnectionHandler {
  onLine(connection: Connection, line: string): void;
  onLineTooLong(connection: Connection): void;
  onClose(connection: Connection): void;
}

export class Connection {
  /** EXT keep-alive: set by the first request that asks for it. */
  keepAlive = false;
  /** An event stream: stays open after its ack, the server only writes. */
  streaming = false;
  /** A one-shot connection reads one request only. */
  private acceptingLines = true;
  private readonly partial: Buffer[] = [];
  private partialBytes = 0;
  private firstLineTimer: NodeJS.Timeout | undefined;
  private partialLineTimer: NodeJS.Timeout | undefined;
  /** Destroys the socket should the client hold its side open after ours closed; cleared once it is closed, so a closed connection is not kept for the grace. */
  private closeGraceTimer: NodeJS.Timeout | undefined;
  private readonly aborter = new AbortController();
  /** Requests read and not yet answered. */
  private owed = 0;
  /** The client closed its sending side. */
  private peerEnded = false;

  constructor(
    private readonly socket: Socket,
    private readonly handler: ConnectionHandler,
    /** Which herdr the client speaks: its socket's, until a request's `protocol` says otherwise (docs/protocol.md §15.1). */
    public dialect: Dialect = '0.2.0',
  ) {
    this.firstLineTimer = setTimeout(() => this.destroy(), FIRST_LINE_TIMEOUT_MS);
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    socket.on('end', () => this.receivedEnd());
    socket.on('drain', () => socket.resume());
    socket.on('error', () => this.destroy());
    socket.on('close', () => this.closed());
  }

  /** Aborts when the client goes away or closes its sending side: its waits and streams end. */
  get signal(): AbortSignal {
    return this.aborter.signal;
  }

  /** Whether the client can still be written to. */
  get isOpen(): boolean {
    return !this.socket.destroyed && !this.socket.writableEnded;
  }

  /** The client closed its sending side (it may still read). */
  get clientDone(): boolean {
    return this.peerEnded;
  }

  /** A line was taken as a request: it is owed an answer. */
  requestRead(): void {
    this.owed++;
  }

  /** Writes a request's answer; closes a connection whose client is done sending once nothing more is owed. */
  answer(message: unknown): void {
    this.send(message);
    this.owed = Math.max(0, this.owed - 1);
    this.endIfDone();
  }

  /** Writes one JSON line; a client that stopped reading long ago is cut off. */
  send(message: unknown): void {
    if (!this.isOpen) return;
    this.socket.write(`${wireJson(message, this.dialect)}\n`);
    if (this.socket.writableLength > MAX_UNSENT_BYTES) this.destroy();
    else if (this.socket.writableLength > PAUSE_READING_ABOVE) this.socket.pause();
  }

  /**
   * The pid of the client's process, as the kernel recorded it when it connected (SO_PEERCRED,
   * os/peer-process.ts); undefined without our addon or once the socket is closed. The process
   * may have exited since.
   */
  peerPid(): number | undefined {
    const handle = (this.socket as unknown as { _handle?: { fd?: unknown } })._handle;
    return typeof handle?.fd === 'number' && handle.fd >= 0 ? peerPid(handle.fd) : undefined;
  }

  /** Bytes written but not yet taken by the client. */
  get unsentBytes(): number {
    return this.socket.writableLength;
  }

  /** Calls back once everything written so far has been taken by the client (at once if it has). */
  whenDrained(callback: () => void): void {
    if (this.socket.writableLength === 0) queueMicrotask(callback);
    else this.socket.once('drain', callback);
  }

  /** Writes a line whatever the backlog (the event stream bounds its own). */
  sendRaw(line: string): void {
    if (this.isOpen) this.socket.write(line);
  }

  /** Stops reading further requests (one-shot connections, event streams). */
  stopReading(): void {
    this.acceptingLines = false;
    this.clearFirstLineTimer();
  }

  /** Flushes what was written, then closes (for good after a grace, should the client hold its side open). */
  end(): void {
    if (!this.isOpen) return;
    this.socket.end();
    this.closeGraceTimer ??= setTimeout(() => this.socket.destroy(), CLOSE_GRACE_MS).unref();
  }

  destroy(): void {
    this.socket.destroy();
  }

  private receive(chunk: Buffer): void {
    let start = 0;
    while (this.acceptingLines) {
      const newline = chunk.indexOf(0x0a, start);
      if (newline === -1) break;
      const piece = chunk.subarray(start, newline);
      start = newline + 1;
      if (this.partialBytes + piece.length > MAX_LINE_BYTES) return this.lineTooLong();
      const line = this.partial.length === 0 ? piece : Buffer.concat([...this.partial.splice(0), piece]);
      this.partialBytes = 0;
      if (!this.keepAlive) this.clearFirstLineTimer();
      this.clearPartialLineTimer();
      this.handler.onLine(this, line.toString('utf8'));
    }
    if (!this.acceptingLines || start >= chunk.length) return;
    const rest = chunk.subarray(start);
    if (this.partialBytes + rest.length > MAX_LINE_BYTES) return this.lineTooLong();
    this.partial.push(Buffer.from(rest));
    this.partialBytes += rest.length;
    this.partialLineTimer ??= setTimeout(() => this.destroy(), LINE_TIMEOUT_MS);
  }

  /** The client will send nothing more: a last line without its newline still counts. */
  private receivedEnd(): void {
    this.peerEnded = true;
    if (this.acceptingLines && this.partialBytes > 0) this.receive(Buffer.from('\n'));
    this.aborter.abort();
    this.endIfDone();
  }

  private endIfDone(): void {
    if (this.peerEnded && this.owed === 0) this.end();
  }

  private lineTooLong(): void {
    this.acceptingLines = false;
    this.partial.length = 0;
    this.partialBytes = 0;
    this.clearFirstLineTimer();
    this.clearPartialLineTimer();
    this.handler.onLineTooLong(this);
  }

  private clearPartialLineTimer(): void {
    if (this.partialLineTimer) clearTimeout(this.partialLineTimer);
    this.partialLineTimer = undefined;
  }

  private clearFirstLineTimer(): void {
    if (this.firstLineTimer) clearTimeout(this.firstLineTimer);
    this.firstLineTimer = undefined;
  }

  private closed(): void {
    this.clearFirstLineTimer();
    this.clearPartialLineTimer();
    clearTimeout(this.closeGraceTimer);
    this.acceptingLines = false;
    this.aborter.abort();
    this.handler.onClose(this);
  }
}
