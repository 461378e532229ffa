/**
 * A subscription on a connection of its own (`events.subscribe`): its event
 * lines, typed by name, as an async iterator that ends when the connection
 * closes. A consumer slower than the events pauses the socket past a bound,
 * and the server's own overflow rule takes over from there.
 */
import { type Socket, connect } from 'node:net';
import { type ResponseEnvelope, isErrorResponse } from '../protocol/envelope.js';
import type { TypedEventLine } from '../protocol/events.js';
import type { SubscriptionSpec } from '../protocol/methods.js';
import { ConnectionError, HerdrError, connectError, lineReader } from './wire.js';

/** Lines held for a slow consumer before the socket stops being read. */
const MAX_QUEUED = 10_000;

export class Subscription implements AsyncIterableIterator<TypedEventLine> {
  /** The seq of the last event handed out: pass it as `since` to resume after a lost connection. */
  lastSeq: number | undefined;
  private readonly queue: TypedEventLine[] = [];
  private waiter: ((result: IteratorResult<TypedEventLine>) => void) | undefined;
  private ended = false;

  private constructor(private readonly socket: Socket) {}

  static open(socketPath: string, subscriptions: SubscriptionSpec[], options: { since?: number; id?: string } = {}): Promise<Subscription> {
    const { since, id = 'subscribe' } = options;
    return new Promise((resolve, reject) => {
      const socket = connect(socketPath);
      const subscription = new Subscription(socket);
      let acknowledged = false;
      socket.once('connect', () => {
        const params = since === undefined ? { subscriptions } : { subscriptions, since };
        socket.write(`${JSON.stringify({ id, method: 'events.subscribe', params })}\n`);
      });
      lineReader(socket, (line) => {
        let message: unknown;
        try {
          message = JSON.parse(line);
        } catch {
          socket.destroy(new ConnectionError(`the server at ${socketPath} sent a line that is not JSON`));
          return;
        }
        if (acknowledged) return subscription.push(message as TypedEventLine);
        acknowledged = true;
        const response = message as ResponseEnvelope;
        if (isErrorResponse(response)) {
          socket.destroy();
          reject(new HerdrError(response));
        } else resolve(subscription);
      });
      socket.on('error', (error) => {
        if (!acknowledged) reject(connectError(socketPath, error));
      });
      socket.on('close', () => {
        if (!acknowledged) reject(new ConnectionError(`the server at ${socketPath} closed the connection without answering`));
        subscription.end();
      });
    });
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<TypedEventLine>> {
    const line = this.queue.shift();
    if (line) return Promise.resolve(this.handOut(line));
    if (this.ended) return Promise.resolve({ done: true, value: undefined });
    if (this.socket.isPaused()) this.socket.resume();
    return new Promise((resolve) => (this.waiter = resolve));
  }

  /** Ends the iteration (a `break` out of `for await` calls it). */
  return(): Promise<IteratorResult<TypedEventLine>> {
    this.close();
    return Promise.resolve({ done: true, value: undefined });
  }

  close(): void {
    this.socket.destroy();
    this.end();
  }

  private push(line: TypedEventLine): void {
    const waiter = this.waiter;
    if (waiter) {
      this.waiter = undefined;
      waiter(this.handOut(line));
      return;
    }
    this.queue.push(line);
    if (this.queue.length >= MAX_QUEUED) this.socket.pause();
  }

  private handOut(line: TypedEventLine): IteratorResult<TypedEventLine> {
    if (typeof line.seq === 'number') this.lastSeq = line.seq;
    return { done: false, value: line };
  }

  private end(): void {
    if (this.ended) return;
    this.ended = true;
    const waiter = this.waiter;
    this.waiter = undefined;
    // Lines still queued are handed out first; the end comes after them.
    if (waiter) waiter({ done: true, value: undefined });
  }
}
