/** Event lines of docs/protocol.md §9.2, as written to subscribers, built from the event catalogue. */
import { z } from 'zod';
import {
  EVENT_CATALOGUE,
  type EventName,
  type EventNameOf,
  type Events,
  type LifecycleEventName,
  SUBSCRIPTION_KINDS,
  type SubscriptionKind,
  eventNameOf,
  kindOfEvent,
} from './event-catalogue.js';

export type { EventName, Events, LifecycleEventName } from './event-catalogue.js';

export type LifecycleEvents = Pick<Events, LifecycleEventName>;
/** The dotted events' data, by name. */
export type StreamEvents = Omit<Events, LifecycleEventName>;

export const OVERFLOW_EVENT = 'subscription_overflow';
const overflowData = z.object({ dropped_after_seq: z.number().int().optional() });

const seq = z.number().int().min(1).optional().describe('EXT: server-wide sequence number; later events have larger ones');

type Catalogue = typeof EVENT_CATALOGUE;
/** A line's data as a client reads it: a lifecycle line's has `type` too. */
type LineData<K extends SubscriptionKind> = Catalogue[K]['line'] extends 'lifecycle'
  ? { type: EventNameOf<K> } & z.output<Catalogue[K]['data']>
  : z.output<Catalogue[K]['data']>;
type LineSchemaOf<K> = K extends SubscriptionKind
  ? z.ZodObject<{ event: z.ZodLiteral<EventNameOf<K>>; data: z.ZodType<LineData<K>>; seq: typeof seq }, z.core.$strip>
  : never;

function lineSchema(kind: SubscriptionKind) {
  const { line, data } = EVENT_CATALOGUE[kind];
  const event = eventNameOf(kind);
  return z.object({ event: z.literal(event), data: line === 'lifecycle' ? z.object({ type: z.literal(event), ...data.shape }) : data, seq });
}

const overflowLine = z.object({ event: z.literal(OVERFLOW_EVENT), data: overflowData, seq });

/** Every event line a client can receive, one member per event name. */
// Built by a loop over the catalogue; the cast names the union the loop makes, kind by kind.
export const eventLineSchema = z.discriminatedUnion('event', [
  overflowLine,
  ...(SUBSCRIPTION_KINDS.map(lineSchema) as unknown as Array<LineSchemaOf<SubscriptionKind>>),
]);

/** An event line typed by its name, as a client receives it. */
export type TypedEventLine = z.output<typeof eventLineSchema>;

/** An event line as the server routes it: its data was built typed (`lifecycleData`, the stream events). */
export interface EventLine {
  event: EventName | typeof OVERFLOW_EVENT;
  data: object;
  seq?: number;
}

export function lifecycleData<E extends LifecycleEventName>(event: E, data: LifecycleEvents[E]): { type: E } & LifecycleEvents[E] {
  return { type: event, ...data };
}

/** Any event's line, typed by its name: `type` put first in a lifecycle line's data. */
export function eventLine<E extends EventName>(event: E, data: Events[E]): Omit<EventLine, 'seq'> {
  const kind = kindOfEvent(event);
  const lifecycle = kind !== undefined && EVENT_CATALOGUE[kind].line === 'lifecycle';
  return { event, data: lifecycle ? { type: event, ...data } : data };
}
