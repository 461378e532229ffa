/**
 * The server's event log: one seq counter for every event, a bounded log of
 * the recent ones, and the batch that holds a request's events until its
 * response has been written (SPEC §9.3: events after the response that caused
 * them). Delivery to subscribers hangs off `publish`.
 */
import type { EventLine, LifecycleEventName, LifecycleEvents } from '../protocol/events.js';
import { lifecycleData } from '../protocol/events.js';

export const RETAINED_EVENTS = 4096;

export type EventListener = (line: EventLine) => void;

export class EventHub {
  private seq = 0;
  private readonly log: EventLine[] = [];
  private readonly listeners = new Set<EventListener>();

  get emitted(): number {
    return this.seq;
  }

  /** Gives the event its seq, retains it and hands it to every listener. */
  publish(line: Omit<EventLine, 'seq'>): EventLine {
    const stamped: EventLine = { ...line, seq: ++this.seq };
    this.log.push(stamped);
    if (this.log.length > RETAINED_EVENTS) this.log.shift();
    for (const listener of this.listeners) listener(stamped);
    return stamped;
  }

  listen(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Retained events after `seq`, or undefined when some of them are gone. */
  since(seq: number): EventLine[] | undefined {
    const oldest = this.log[0]?.seq ?? this.seq + 1;
    if (seq + 1 < oldest && seq < this.seq) return undefined;
    return this.log.filter((line) => (line.seq ?? 0) > seq);
  }
}

/**
 * Events caused by one request. Their data is captured when they happen
 * (compact ids as they were then); they get their seq when flushed.
 */
export class EventBatch {
  private readonly pending: Array<Omit<EventLine, 'seq'>> = [];

  constructor(private readonly hub: EventHub) {}

  add<E extends LifecycleEventName>(event: E, data: LifecycleEvents[E]): void {
    this.pending.push({ event, data: lifecycleData(event, data) });
  }

  flush(): void {
    for (const line of this.pending.splice(0)) this.hub.publish(line);
  }
}
