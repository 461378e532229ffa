/**
 * The server's event log: one seq counter for every event, a bounded log of
 * the recent lifecycle and agent-state events (for `since` replay), listeners,
 * and the batch that holds a request's events until its response has been
 * written (docs/protocol.md §9.3: events after the response that caused them).
 */
import type { EventLine, EventName, Events, LifecycleEventName, LifecycleEvents } from '../protocol/events.js';
import { eventLine, lifecycleData } from '../protocol/events.js';
import type { EventMeta } from './ids.js';

export type { EventMeta };

export const RETAINED_EVENTS = 4096;

export interface LoggedEvent {
  line: EventLine;
  meta: EventMeta;
}

export type EventListener = (event: LoggedEvent) => void;

export class EventHub {
  private seq = 0;
  private readonly log: LoggedEvent[] = [];
  private readonly listeners = new Set<EventListener>();

  get emitted(): number {
    return this.seq;
  }

  /** Gives the event its seq, retains it and hands it to every listener. */
  publish(line: Omit<EventLine, 'seq'>, meta: EventMeta = {}): LoggedEvent {
    const event: LoggedEvent = { line: { ...line, seq: ++this.seq }, meta };
    this.log.push(event);
    if (this.log.length > RETAINED_EVENTS) this.log.shift();
    for (const listener of this.listeners) listener(event);
    return event;
  }

  /** Publishes one event of the catalogue, typed by its name (one no request caused: a timer, a shard's report). */
  publishEvent<E extends EventName>(event: E, data: Events[E], meta: EventMeta = {}): LoggedEvent {
    return this.publish(eventLine(event, data), meta);
  }

  /** A seq for a line that is sent to one subscriber only and never retained (output matches, `initial`). */
  stamp(line: Omit<EventLine, 'seq'>): EventLine {
    return { ...line, seq: ++this.seq };
  }

  listen(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Retained events after `seq`, or undefined when some of them are no longer retained. */
  since(seq: number): LoggedEvent[] | undefined {
    const oldest = this.log[0]?.line.seq ?? this.seq + 1;
    if (seq < this.seq && seq + 1 < oldest) return undefined;
    return this.log.filter((event) => (event.line.seq ?? 0) > seq);
  }
}

/**
 * Events caused by one request. Their data is captured when they happen
 * (compact ids as they were then); they get their seq when flushed.
 */
export class EventBatch {
  private readonly pending: LoggedEvent[] = [];

  constructor(private readonly hub: EventHub) {}

  add<E extends LifecycleEventName>(event: E, data: LifecycleEvents[E], meta: EventMeta = {}): void {
    this.pending.push({ line: { event, data: lifecycleData(event, data) }, meta });
  }

  /** Any event of the catalogue the request caused, typed by its name (docs/protocol.md §9.2). */
  addEvent<E extends EventName>(event: E, data: Events[E], meta: EventMeta = {}): void {
    this.pending.push({ line: eventLine(event, data), meta });
  }

  /** A stream event (dotted name) the request caused, e.g. an agent's status after a read. */
  addLine(line: Omit<EventLine, 'seq'>, meta: EventMeta = {}): void {
    this.pending.push({ line, meta });
  }

  flush(): void {
    for (const { line, meta } of this.pending.splice(0)) this.hub.publish(line, meta);
  }
}
