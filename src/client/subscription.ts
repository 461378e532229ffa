/** `events.subscribe` on a connection of its own: typed event lines, and where to resume from. */
import type { TypedEventLine } from '../protocol/events.js';
import type { SubscriptionSpec } from '../protocol/methods.js';
import { ServerStream } from './server-stream.js';
import { type Dialer, asDialer } from './transport.js';

export class Subscription extends ServerStream<TypedEventLine> {
  /** The seq of the last event handed out: pass it as `since` to resume after a lost connection. */
  lastSeq: number | undefined;

  static async open(target: string | Dialer, subscriptions: SubscriptionSpec[], options: { since?: number; id?: string } = {}): Promise<Subscription> {
    const { since, id = 'subscribe' } = options;
    const params = since === undefined ? { subscriptions } : { subscriptions, since };
    const { stream } = await ServerStream.connect<'events.subscribe', TypedEventLine, Subscription>(asDialer(target), { id, method: 'events.subscribe', params }, (socket) => new Subscription(socket));
    return stream;
  }

  protected override handOut(line: TypedEventLine): IteratorResult<TypedEventLine> {
    if (typeof line.seq === 'number') this.lastSeq = line.seq;
    return super.handOut(line);
  }
}
