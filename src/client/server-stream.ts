/**
 * A request whose connection stays open for the server to write on
 * (`events.subscribe`, `pane.stream`): its ack, then its lines, typed, as an
 * async iterator that ends when the connection closes. A consumer slower than
 * the lines pauses the socket past a bound, and the server's own rule for
 * slow readers takes over from there (overflow for subscriptions, resync for
 * pane streams).
 */
import type { Duplex } from 'node:stream';
import type { ResponseEnvelope } from '../protocol/envelope.js';
import type { MethodResults } from '../protocol/methods.js';
import { resultOf } from './answer-check.js';
import { ConnectionError, closedUnanswered, connectionFailure } from './errors.js';
import type { Dialer } from './transport.js';
import { lineReader } from './wire.js';

/** Lines held for a slow consumer before the socket stops being read. */
const MAX_QUEUED = 10_000;

/** The methods whose connection stays open after the answer. */
export type StreamMethod = 'events.subscribe' | 'pane.stream';

export interface StreamRequest<M extends StreamMethod> {
  id: string;
  method: M;
  params: object;
}

export class ServerStream<Line> implements AsyncIterableIterator<Line> {
  private readonly queue: Line[] = [];
  private waiter: ((result: IteratorResult<Line>) => void) | undefined;
  private ended = false;

  protected constructor(private readonly socket: Duplex) {}

  /** Sends the request; resolves with the stream once the ack came (its result alongside), or rejects with HerdrError or ConnectionError. */
  protected static async connect<M extends StreamMethod, L, S extends ServerStream<L>>(
    dialer: Dialer,
    request: StreamRequest<M>,
    create: (socket: Duplex) => S,
  ): Promise<{ stream: S; ack: MethodResults[M] }> {
    const socket = await dialer.dial();
    return new Promise((resolve, reject) => {
      const stream = create(socket);
      let acknowledged = false;
      socket.write(`${JSON.stringify(request)}\n`);
      lineReader(socket, (line) => {
        let message: unknown;
        try {
          message = JSON.parse(line);
        } catch {
          socket.destroy(new ConnectionError(`${dialer.where} sent a line that is not JSON`));
          return;
        }
        if (acknowledged) return stream.push(message);
        acknowledged = true;
        // Lines that come while the ack is checked wait in the stream's queue.
        resultOf(request.method, message as ResponseEnvelope, dialer.where).then(
          (ack) => resolve({ stream, ack }),
          (error: unknown) => {
            socket.destroy();
            reject(error);
          },
        );
      });
      socket.on('error', (error) => {
        if (!acknowledged) reject(connectionFailure(dialer.where, error));
      });
      socket.on('close', () => {
        if (!acknowledged) reject(closedUnanswered(dialer.where));
        stream.end();
      });
    });
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<Line>> {
    if (this.queue.length > 0) return Promise.resolve(this.handOut(this.queue.shift() as Line));
    if (this.ended) return Promise.resolve({ done: true, value: undefined });
    if (this.socket.isPaused()) this.socket.resume();
    return new Promise((resolve) => (this.waiter = resolve));
  }

  /** Ends the iteration (a `break` out of `for await` calls it). */
  return(): Promise<IteratorResult<Line>> {
    this.close();
    return Promise.resolve({ done: true, value: undefined });
  }

  close(): void {
    this.socket.destroy();
    this.end();
  }

  /** A line is handed to the consumer (subclasses note what they track). */
  protected handOut(line: Line): IteratorResult<Line> {
    return { done: false, value: line };
  }

  private push(message: unknown): void {
    const line = message as Line;
    const waiter = this.waiter;
    if (waiter) {
      this.waiter = undefined;
      waiter(this.handOut(line));
      return;
    }
    this.queue.push(line);
    if (this.queue.length >= MAX_QUEUED) this.socket.pause();
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
