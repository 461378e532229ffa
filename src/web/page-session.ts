/**
 * One open page: its WebSocket, the calls it makes (each checked against the
 * allowed methods, then made with the named server's own client, so the
 * server validates and answers as it would any client), the fleet's rows,
 * and the pane streams of the tiles it shows.
 */
import type { WebSocket } from 'ws';
import { z } from 'zod';
import type { MethodInput, MethodName } from '../protocol/methods.js';
import { apiErrorOf } from './api-error.js';
import type { FleetHub } from './fleet-hub.js';
import { OutputPacer } from './output-pacer.js';
import { type StreamPage, TileStream } from './tile-stream.js';
import type { ApiError, PageMessage, ServerMessage } from './wire.js';

/** A page may hold this many streams at once (tiles on screen and the large pane). */
const MAX_STREAMS = 400;
/** Text frames larger than this are refused: no call the page makes comes near it. */
export const MAX_MESSAGE_BYTES = 1 << 20;

export interface PageOptions {
  readonly version: string;
  readonly readOnly: boolean;
  readonly fps: number;
  readonly methods: ReadonlySet<string>;
  /** herdr web's directory and its user's home, told to the page ("+ agent" starts there by default). */
  readonly cwd: string;
  readonly home: string;
}

export class PageSession implements StreamPage {
  readonly pacer: OutputPacer;
  private readonly streams = new Map<number, TileStream>();
  private readonly unlisten: () => void;
  private closed = false;

  constructor(
    private readonly socket: WebSocket,
    private readonly hub: FleetHub,
    private readonly options: PageOptions,
  ) {
    this.pacer = new OutputPacer({ sendBinary: (frame) => this.sendBinary(frame), get unsent() { return socket.bufferedAmount; } }, Math.round(1000 / options.fps));
    this.send({
      t: 'hello',
      version: options.version,
      readOnly: options.readOnly,
      fps: options.fps,
      hosts: hub.hostNames(),
      methods: [...options.methods],
      cwd: options.cwd,
      home: options.home,
    });
    this.unlisten = hub.listen((message) => this.send(message));
    socket.on('message', (data, isBinary) => this.received(data.toString(), isBinary));
    socket.on('close', () => this.close());
    socket.on('error', () => this.close());
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.unlisten();
    this.pacer.close();
    for (const stream of this.streams.values()) stream.close();
    this.streams.clear();
  }

  /** JSON to the page; dropped once it is gone. */
  send(message: ServerMessage): void {
    if (!this.closed) this.socket.send(JSON.stringify(message));
  }

  private sendBinary(frame: Buffer): void {
    if (!this.closed) this.socket.send(frame);
  }

  private received(text: string, isBinary: boolean): void {
    const message = isBinary ? undefined : parseMessage(text);
    if (!message) {
      // Not one of ours: the page is not ours either. Nothing it asked is done.
      this.socket.close(1003, 'not a herdr web message');
      return;
    }
    switch (message.t) {
      case 'call':
        void this.call(message.id, message.host, message.method, message.params);
        break;
      case 'stream':
        this.openStream(message);
        break;
      case 'unstream':
        this.streams.get(message.id)?.close();
        this.streams.delete(message.id);
        break;
    }
  }

  private async call(id: number, host: string | undefined, method: string, params: object): Promise<void> {
    const feed = this.hub.feed(host);
    if (!feed) return this.send({ t: 'answer', id, error: { code: 'host_not_found', message: `no host ${host}` } });
    if (!this.options.methods.has(method)) {
      const why = this.options.readOnly ? 'this page is read-only (herdr web --read-only)' : 'herdr web does not forward it';
      return this.send({ t: 'answer', id, error: { code: 'method_not_allowed', message: `${method}: ${why}` } });
    }
    try {
      // The server checks the params as it does any client's.
      const result = await feed.client.call(method as MethodName, params as MethodInput<MethodName>);
      this.send({ t: 'answer', id, result });
    } catch (error) {
      this.send({ t: 'answer', id, error: apiErrorOf(error) });
    }
  }

  private openStream(message: Extract<PageMessage, { t: 'stream' }>): void {
    const feed = this.hub.feed(message.host);
    const refuse = (error: ApiError) => this.send({ t: 'stream', id: message.id, notice: { event: 'stream_failed', error } });
    if (!feed) return refuse({ code: 'host_not_found', message: `no host ${message.host}` });
    if (this.streams.has(message.id)) return refuse({ code: 'invalid_request', message: `stream ${message.id} is open already` });
    if (this.streams.size >= MAX_STREAMS) return refuse({ code: 'too_many_streams', message: `a page streams at most ${MAX_STREAMS} panes` });
    const stream = new TileStream(message.id, this, {
      dialer: feed.dialer,
      pane: message.pane,
      live: message.live === true,
      look: message.look !== false,
      onEnd: () => this.streams.delete(message.id),
    });
    this.streams.set(message.id, stream);
    stream.start();
  }
}

const id = z.number().int().min(0).max(0xffffffff);
const host = z.string().optional();
const pageMessageSchema = z.discriminatedUnion('t', [
  z.object({ t: z.literal('call'), id, host, method: z.string(), params: z.record(z.string(), z.unknown()) }),
  z.object({ t: z.literal('stream'), id, host, pane: z.string(), live: z.boolean().optional(), look: z.boolean().optional() }),
  z.object({ t: z.literal('unstream'), id }),
]) satisfies z.ZodType<PageMessage>;

/** A page message, or undefined when it is not one (it comes from outside: checked whole). */
function parseMessage(text: string): PageMessage | undefined {
  if (text.length > MAX_MESSAGE_BYTES) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const parsed = pageMessageSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}
