/**
 * The page's one WebSocket to `herdr web` (src/web/wire.ts): method calls
 * answered by id, pane streams by id (notices as JSON, output as binary
 * frames), and the fleet's rows. When the socket drops, it is opened again
 * after a second; open streams are told they failed, so their tiles open
 * them again (the new ack redraws the screen).
 */
import type { MethodInput, MethodResults } from '../../protocol/methods.js';
import type { PageMethod } from '../methods.js';
import { type ApiError, OUTPUT_RECORD_HEADER_BYTES, type PageMessage, type ServerMessage, type StreamNotice } from '../wire.js';

type Hello = Extract<ServerMessage, { t: 'hello' }>;
type Fleet = Extract<ServerMessage, { t: 'fleet' }>;
type Notification = Extract<ServerMessage, { t: 'notification' }>;

export class CallError extends Error {
  constructor(readonly code: string, message: string) {
    super(message);
  }
}

export interface StreamHandler {
  notice(notice: StreamNotice): void;
  output(bytes: Uint8Array): void;
}

export interface LinkListener {
  hello(hello: Hello): void;
  fleet(fleet: Fleet): void;
  notification(message: Notification): void;
  connection(up: boolean): void;
}

const RECONNECT_MS = 1000;

export class Link {
  private socket: WebSocket | undefined;
  private nextId = 1;
  private readonly calls = new Map<number, { resolve: (result: unknown) => void; reject: (error: Error) => void }>();
  private readonly streams = new Map<number, StreamHandler>();

  constructor(private readonly listener: LinkListener) {}

  connect(): void {
    const socket = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`);
    socket.binaryType = 'arraybuffer';
    this.socket = socket;
    socket.onopen = () => this.listener.connection(true);
    socket.onmessage = (event: MessageEvent<string | ArrayBuffer>) => this.received(event.data);
    socket.onclose = () => {
      this.socket = undefined;
      this.listener.connection(false);
      const lost = { code: 'connection_lost', message: 'the connection to herdr web was lost' };
      for (const call of this.calls.values()) call.reject(new CallError(lost.code, lost.message));
      this.calls.clear();
      const streams = [...this.streams.values()];
      this.streams.clear();
      for (const stream of streams) stream.notice({ event: 'stream_failed', error: lost });
      setTimeout(() => this.connect(), RECONNECT_MS);
    };
  }

  get up(): boolean {
    return this.socket?.readyState === WebSocket.OPEN;
  }

  /**
   * An API call on the named server; rejects with CallError. Typed from the server's method table
   * (src/protocol/methods.ts), as the client library's `call` is: the params a method takes and the
   * result it answers, for the methods the page may call (src/web/methods.ts). herdr web checks each
   * answer against the method's result schema before it is sent here (its client does).
   */
  call<M extends PageMethod>(method: M, params: MethodInput<M>, host?: string): Promise<MethodResults[M]> {
    const id = this.nextId++;
    return new Promise<MethodResults[M]>((resolve, reject) => {
      if (!this.up) return reject(new CallError('connection_lost', 'not connected to herdr web'));
      this.calls.set(id, { resolve: resolve as (result: unknown) => void, reject });
      this.send({ t: 'call', id, method, params, ...(host === undefined ? {} : { host }) });
    });
  }

  /** Opens a pane.stream; returns its id (for unstream), or undefined when not connected. */
  stream(host: string, pane: string, handler: StreamHandler, options: { live?: boolean; look?: boolean } = {}): number | undefined {
    if (!this.up) return undefined;
    const id = this.nextId++;
    this.streams.set(id, handler);
    this.send({ t: 'stream', id, host, pane, ...options });
    return id;
  }

  unstream(id: number): void {
    if (!this.streams.delete(id)) return;
    if (this.up) this.send({ t: 'unstream', id });
  }

  private send(message: PageMessage): void {
    this.socket?.send(JSON.stringify(message));
  }

  private received(data: string | ArrayBuffer): void {
    if (typeof data !== 'string') {
      const view = new DataView(data);
      for (let at = 0; at + OUTPUT_RECORD_HEADER_BYTES <= data.byteLength; ) {
        const id = view.getUint32(at, true);
        const length = view.getUint32(at + 4, true);
        this.streams.get(id)?.output(new Uint8Array(data, at + OUTPUT_RECORD_HEADER_BYTES, length));
        at += OUTPUT_RECORD_HEADER_BYTES + length;
      }
      return;
    }
    const message = JSON.parse(data) as ServerMessage;
    switch (message.t) {
      case 'hello':
        return this.listener.hello(message);
      case 'fleet':
        return this.listener.fleet(message);
      case 'notification':
        return this.listener.notification(message);
      case 'answer': {
        const call = this.calls.get(message.id);
        this.calls.delete(message.id);
        if (message.error) call?.reject(callError(message.error));
        else call?.resolve(message.result);
        return;
      }
      case 'stream': {
        const handler = this.streams.get(message.id);
        const ends = message.notice.event === 'stream_failed' || message.notice.event === 'pane.exited';
        if (ends) this.streams.delete(message.id);
        handler?.notice(message.notice);
        return;
      }
    }
  }
}

function callError(error: ApiError): CallError {
  return new CallError(error.code, error.message);
}
