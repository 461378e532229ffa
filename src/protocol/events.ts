/** Event lines of docs/protocol.md §9.2, as written to subscribers: one schema per event's data. */
import { z } from 'zod';
import { paneLayoutSnapshotSchema } from './pane-layout.js';
import { RULE_EVENT_DATA } from './rules.js';
import { TURN_EVENT_DATA } from './turns.js';
import { AGENT_STATES, AGENT_STATUSES, NOTIFICATION_KINDS, agentLabelSchema, outputMatchSchema, paneInfoSchema, paneRefFields as paneRef, tabInfoSchema, workspaceInfoSchema } from './objects.js';

/** A tab as its events name it: herdr's id and its workspace's. */
const tabRef = { tab_id: z.string(), workspace_id: z.string() };

/** Lifecycle events: underscore names, `type` repeated in `data` (the schemas leave `type` to `lifecycleData`). */
export const LIFECYCLE_EVENT_DATA = {
  workspace_created: z.object({ workspace: workspaceInfoSchema }),
  workspace_closed: z.object({ workspace_id: z.string() }),
  workspace_focused: z.object({ workspace_id: z.string() }),
  pane_created: z.object({ pane: paneInfoSchema }),
  pane_closed: z.object(paneRef),
  pane_focused: z.object(paneRef),
  pane_exited: z.object({ ...paneRef, exit_code: z.number().int().optional(), signal: z.number().int().optional() }),
  pane_agent_detected: z.object({ ...paneRef, agent: agentLabelSchema.optional() }),
  tab_created: z.object({ tab: tabInfoSchema }),
  tab_closed: z.object(tabRef),
  tab_focused: z.object(tabRef),
  tab_renamed: z.object({ ...tabRef, label: z.string() }),
  /** herdr's: after `pane.resize` moved a border (this server emits it for nothing else yet). */
  layout_updated: z.object({ layout: paneLayoutSnapshotSchema }),
} as const;

export type LifecycleEventName = keyof typeof LIFECYCLE_EVENT_DATA;
export type LifecycleEvents = { [E in LifecycleEventName]: z.output<(typeof LIFECYCLE_EVENT_DATA)[E]> };

/** Parameterised events: dotted names, no `type`. */
export const STREAM_EVENT_DATA = {
  'pane.output_matched': outputMatchSchema,
  'pane.agent_state_changed': z.object({
    ...paneRef,
    state: z.enum(AGENT_STATES),
    agent_status: z.enum(AGENT_STATUSES).describe('EXT: the state with `done`'),
    agent: agentLabelSchema.optional(),
  }),
  'pane.agent_status_changed': z.object({ ...paneRef, agent_status: z.enum(AGENT_STATUSES), agent: agentLabelSchema.optional() }),
  'pane.command_finished': z.object({ ...paneRef, exit_code: z.number().int() }),
  'pane.output_activity': z.object({
    ...paneRef,
    active: z.boolean().describe('true: it began printing; false: it printed nothing for 2 s'),
    last_output_at: z.number().int().min(0).describe('when it last printed, ms since the Unix epoch'),
    active_since: z.number().int().min(0).optional().describe('when it began printing (active only)'),
  }),
  'pane.notification': z.object({
    ...paneRef,
    kind: z.enum(NOTIFICATION_KINDS),
    title: z.string().optional(),
    body: z.string().optional(),
  }),
  'server.restored': z.object({ workspaces: z.number().int().min(0), panes: z.number().int().min(0) }),
  ...TURN_EVENT_DATA,
  ...RULE_EVENT_DATA,
} as const;

export type StreamEvents = { [E in keyof typeof STREAM_EVENT_DATA]: z.output<(typeof STREAM_EVENT_DATA)[E]> };

export const OVERFLOW_EVENT = 'subscription_overflow';
const overflowData = z.object({ dropped_after_seq: z.number().int().optional() });

export type EventName = LifecycleEventName | keyof StreamEvents;

const seq = z.number().int().min(1).optional().describe('EXT: server-wide sequence number; later events have larger ones');

const lifecycleLine = <E extends LifecycleEventName, S extends z.ZodRawShape>(event: E, data: z.ZodObject<S>) =>
  z.object({ event: z.literal(event), data: z.object({ type: z.literal(event), ...data.shape }), seq });
const streamLine = <E extends keyof StreamEvents, S extends z.ZodRawShape>(event: E, data: z.ZodObject<S>) =>
  z.object({ event: z.literal(event), data, seq });
const lifecycle = LIFECYCLE_EVENT_DATA;

/** Every event line a client can receive, one member per event name. */
export const eventLineSchema = z.discriminatedUnion('event', [
  lifecycleLine('workspace_created', lifecycle.workspace_created),
  lifecycleLine('workspace_closed', lifecycle.workspace_closed),
  lifecycleLine('workspace_focused', lifecycle.workspace_focused),
  lifecycleLine('pane_created', lifecycle.pane_created),
  lifecycleLine('pane_closed', lifecycle.pane_closed),
  lifecycleLine('pane_focused', lifecycle.pane_focused),
  lifecycleLine('pane_exited', lifecycle.pane_exited),
  lifecycleLine('pane_agent_detected', lifecycle.pane_agent_detected),
  lifecycleLine('tab_created', lifecycle.tab_created),
  lifecycleLine('tab_closed', lifecycle.tab_closed),
  lifecycleLine('tab_focused', lifecycle.tab_focused),
  lifecycleLine('tab_renamed', lifecycle.tab_renamed),
  lifecycleLine('layout_updated', lifecycle.layout_updated),
  streamLine('pane.output_matched', STREAM_EVENT_DATA['pane.output_matched']),
  streamLine('pane.agent_state_changed', STREAM_EVENT_DATA['pane.agent_state_changed']),
  streamLine('pane.agent_status_changed', STREAM_EVENT_DATA['pane.agent_status_changed']),
  streamLine('pane.command_finished', STREAM_EVENT_DATA['pane.command_finished']),
  streamLine('pane.output_activity', STREAM_EVENT_DATA['pane.output_activity']),
  streamLine('pane.notification', STREAM_EVENT_DATA['pane.notification']),
  streamLine('server.restored', STREAM_EVENT_DATA['server.restored']),
  streamLine('pane.prompt_queued', STREAM_EVENT_DATA['pane.prompt_queued']),
  streamLine('pane.prompt_accepted', STREAM_EVENT_DATA['pane.prompt_accepted']),
  streamLine('pane.turn_started', STREAM_EVENT_DATA['pane.turn_started']),
  streamLine('pane.turn_finished', STREAM_EVENT_DATA['pane.turn_finished']),
  streamLine('rule.fired', STREAM_EVENT_DATA['rule.fired']),
  z.object({ event: z.literal(OVERFLOW_EVENT), data: overflowData, seq }),
]);

/** An event line typed by its name, as a client receives it. */
export type TypedEventLine = z.output<typeof eventLineSchema>;

/** An event line as the server routes it: its data was built typed (`lifecycleData`, the stream events). */
export interface EventLine {
  event: EventName | typeof OVERFLOW_EVENT;
  data: object;
  seq?: number;
}

export function lifecycleData<E extends LifecycleEventName>(
  event: E,
  data: LifecycleEvents[E],
): { type: E } & LifecycleEvents[E] {
  return { type: event, ...data };
}
