/** A raw stream client (`events.subscribe`, `pane.stream`): one request on its own connection, every line collected. */
import { type Socket, connect } from 'node:net';
import { lineReader } from '../../src/client/client.js';
import type { EventLine } from '../../src/protocol/events.js';
import { eventually } from './server.js';

export class EventClient {
  readonly lines: Array<Record<string, any>> = [];
  closed = false;

  private constructor(private readonly socket: Socket) {
    lineReader(socket, (line) => this.lines.push(JSON.parse(line)));
    socket.on('close', () => (this.closed = true));
    socket.on('error', () => undefined);
  }

  /** Sends `events.subscribe` and waits for its answer (the first line). */
  static subscribe(socketPath: string, params: object, id = 'sub'): Promise<EventClient> {
    return EventClient.open(socketPath, 'events.subscribe', params, id);
  }

  /** Sends one request whose connection stays open and waits for its answer (the first line). */
  static async open(socketPath: string, method: string, params: object, id = method): Promise<EventClient> {
    const socket = connect(socketPath);
    await new Promise((resolve) => socket.once('connect', resolve));
    const client = new EventClient(socket);
    socket.write(`${JSON.stringify({ id, method, params })}\n`);
    await eventually(() => client.lines.length > 0, `the ${method} answer`);
    return client;
  }

  get ack(): Record<string, any> {
    return this.lines[0] ?? {};
  }

  /** Event lines after the ack. */
  get events(): EventLine[] {
    return this.lines.slice(1) as EventLine[];
  }

  names(): string[] {
    return this.events.map((e) => e.event);
  }

  until(predicate: (events: EventLine[]) => boolean, what: string, timeoutMs = 10_000): Promise<EventLine[]> {
    return eventually(() => predicate(this.events) && this.events, what, timeoutMs);
  }

  pause(): void {
    this.socket.pause();
  }

  resume(): void {
    this.socket.resume();
  }

  close(): void {
    this.socket.destroy();
  }
}
