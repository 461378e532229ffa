/**
 * Every event kind the server has, one entry each (docs/protocol.md §9): how a client
 * subscribes to it, what its line carries, what it is about, and whether `events.wait`
 * can wait for it. Everything else is built from this table: the event line schema
 * (events.ts), the subscription entries `events.subscribe` validates (methods.ts), the
 * names `events.wait` takes, and the filter each subscription runs on the server
 * (main/handlers/subscriptions.ts). A new event kind is a new entry here.
 *
 * Keys are subscription kinds. A `lifecycle` entry's line is named with an underscore
 * (`workspace.created` arrives as `workspace_created`) and repeats that name as `type` in
 * its data; a `dotted` entry's line keeps the kind's name and has no `type` (herdr's
 * split, kept on both dialects).
 */
import { z } from 'zod';
import { paneLayoutSnapshotSchema } from './pane-layout.js';
import { paneScrollInfoSchema } from './pane-scroll.js';
import { optional } from './optional.js';
import { paneId } from './params.js';
import { matchSchema, readWindowFields } from './read-window.js';
import { RULE_EVENT_DATA } from './rules.js';
import { TURN_EVENT_DATA } from './turns.js';
import { notificationSchema } from './methods/notifications.js';
import { worktreeInfoSchema } from './methods/worktrees.js';
import {
  AGENT_STATES,
  AGENT_STATUSES,
  NOTIFICATION_KINDS,
  agentLabelSchema,
  outputMatchSchema,
  paneInfoSchema,
  paneRefFields as paneRef,
  tabInfoSchema,
  workspaceInfoSchema,
} from './objects.js';

/** What an event is about: its subject names the ids its data carries. */
export type EventScope = 'pane' | 'tab' | 'workspace' | 'server';

/**
 * How a subscription picks the lines of its kind, and so which fields it takes
 * besides `type`. The server implements each filter once.
 */
export const SUBSCRIPTION_FILTERS = {
  /** Every line of the kind. */
  every: {},
  /** One pane's lines (`pane_id`), or without it every pane's, present and future. */
  pane: { pane_id: optional(paneId) },
  /** An agent state change, of one pane or all, with a state filter and the current state on request. */
  agent_state: { pane_id: optional(paneId), state: optional(z.enum(AGENT_STATES)), initial: optional(z.boolean()) },
  /** The same for `agent_status` (§13.2). */
  agent_status: { pane_id: optional(paneId), agent_status: optional(z.enum(AGENT_STATUSES)), initial: optional(z.boolean()) },
  /** A pattern watched in one pane's read window; its lines are made for this subscriber alone. */
  output_match: { ...readWindowFields, match: matchSchema },
  /** Every rule's firings, or one rule's. */
  rule: { rule_id: optional(z.string().describe('only this rule\'s firings (its id)')) },
  /** Told once, right after the acknowledgement, when the server started from a saved session. */
  restored: {},
} as const;
export type SubscriptionFilter = keyof typeof SUBSCRIPTION_FILTERS;

interface EntryShape {
  line: 'lifecycle' | 'dotted';
  data: z.ZodObject;
  scope: EventScope;
  waitable: boolean;
  filter: SubscriptionFilter;
}

/** A kind named with an underscore on its line, `type` in its data, every line to every subscriber. */
const lifecycle = <S extends EventScope, D extends z.ZodObject>(scope: S, data: D) =>
  ({ line: 'lifecycle', scope, data, waitable: true, filter: 'every' }) as const;

/** A kind whose line keeps its dotted name. */
const dotted = <S extends EventScope, F extends SubscriptionFilter, D extends z.ZodObject, W extends boolean>(scope: S, filter: F, data: D, waitable: W) =>
  ({ line: 'dotted', scope, filter, data, waitable }) as const;

const tabRef = { tab_id: z.string(), workspace_id: z.string() };
const workspace = { workspace: workspaceInfoSchema };
const insertIndex = z.number().int().min(0).describe('where it went: its 0-based position after the move');

const paneDotted = <D extends z.ZodObject>(data: D) => dotted('pane', 'pane', data, true);

export const EVENT_CATALOGUE = {
  'workspace.created': lifecycle('workspace', z.object(workspace)),
  // A workspace's facts changed other than by a rename (herdr: its worktree membership).
  'workspace.updated': lifecycle('workspace', z.object(workspace)),
  // The tokens reported for it changed (workspace.report_metadata, or a TTL ran out).
  'workspace.metadata_updated': lifecycle('workspace', z.object(workspace)),
  'workspace.renamed': lifecycle('workspace', z.object({ workspace_id: z.string(), label: z.string() })),
  'workspace.moved': lifecycle('workspace', z.object({ workspace_id: z.string(), insert_index: insertIndex, workspaces: z.array(workspaceInfoSchema).describe('every workspace, in the new order') })),
  'workspace.reordered': lifecycle(
    'workspace',
    z.object({
      workspace_ids: z.array(z.string()).describe('the workspaces moved, as one block in this order'),
      before_workspace_id: z.string().optional().describe('the workspace the block now stands before; absent: at the end'),
      workspaces: z.array(workspaceInfoSchema).describe('every workspace, in the new order'),
    }),
  ),
  'workspace.closed': lifecycle('workspace', z.object({ workspace_id: z.string() })),
  'workspace.focused': lifecycle('workspace', z.object({ workspace_id: z.string() })),
  'worktree.created': lifecycle('workspace', z.object({ ...workspace, worktree: worktreeInfoSchema })),
  'worktree.opened': lifecycle('workspace', z.object({ ...workspace, worktree: worktreeInfoSchema, already_open: z.boolean() })),
  'worktree.removed': lifecycle(
    'workspace',
    z.object({
      workspace_id: z.string(),
      workspace: workspaceInfoSchema.optional().describe('the workspace as it was before it closed'),
      worktree: worktreeInfoSchema,
      forced: z.boolean(),
    }),
  ),
  'tab.created': lifecycle('tab', z.object({ tab: tabInfoSchema })),
  'tab.closed': lifecycle('tab', z.object(tabRef)),
  'tab.focused': lifecycle('tab', z.object(tabRef)),
  'tab.renamed': lifecycle('tab', z.object({ ...tabRef, label: z.string() })),
  'tab.moved': lifecycle('tab', z.object({ ...tabRef, insert_index: insertIndex, tabs: z.array(tabInfoSchema).describe('the workspace\'s tabs, in the new order') })),
  'pane.created': lifecycle('pane', z.object({ pane: paneInfoSchema })),
  'pane.closed': lifecycle('pane', z.object(paneRef)),
  // What pane_info shows changed: its title, label, reported metadata, its agent's name.
  'pane.updated': lifecycle('pane', z.object({ pane: paneInfoSchema })),
  'pane.focused': lifecycle('pane', z.object(paneRef)),
  'pane.moved': lifecycle(
    'pane',
    z.object({
      previous_pane_id: z.string(),
      previous_workspace_id: z.string(),
      previous_tab_id: z.string(),
      pane: paneInfoSchema.describe('the pane where it is now, with its new ids'),
      created_workspace: workspaceInfoSchema.optional().describe('the workspace made for it'),
      created_tab: tabInfoSchema.optional().describe('the tab made for it'),
      closed_workspace_id: z.string().optional().describe('the workspace it left, closed for being empty'),
      closed_tab_id: z.string().optional().describe('the tab it left, closed for being empty'),
    }),
  ),
  'pane.exited': lifecycle('pane', z.object({ ...paneRef, exit_code: z.number().int().optional(), signal: z.number().int().optional() })),
  'pane.agent_detected': lifecycle('pane', z.object({ ...paneRef, agent: agentLabelSchema.optional() })),
  /** herdr's: a tab's tree, zoom or ratios changed (docs/protocol.md §5.4, layout-events.ts). */
  'layout.updated': lifecycle('tab', z.object({ layout: paneLayoutSnapshotSchema })),

  'pane.output_matched': dotted('pane', 'output_match', outputMatchSchema, false),
  'pane.agent_state_changed': dotted(
    'pane',
    'agent_state',
    z.object({
      ...paneRef,
      state: z.enum(AGENT_STATES),
      agent_status: z.enum(AGENT_STATUSES).describe('EXT: the state with `done`'),
      agent: agentLabelSchema.optional(),
    }),
    true,
  ),
  'pane.agent_status_changed': dotted('pane', 'agent_status', z.object({ ...paneRef, agent_status: z.enum(AGENT_STATUSES), agent: agentLabelSchema.optional() }), true),
  'pane.scroll_changed': paneDotted(z.object({ ...paneRef, scroll: paneScrollInfoSchema })),
  'pane.command_finished': paneDotted(z.object({ ...paneRef, exit_code: z.number().int() })),
  'pane.output_activity': paneDotted(
    z.object({
      ...paneRef,
      active: z.boolean().describe('true: it began printing; false: it printed nothing for 2 s'),
      last_output_at: z.number().int().min(0).describe('when it last printed, ms since the Unix epoch'),
      active_since: z.number().int().min(0).optional().describe('when it began printing (active only)'),
    }),
  ),
  'pane.notification': paneDotted(
    z.object({
      ...paneRef,
      kind: z.enum(NOTIFICATION_KINDS),
      title: z.string().optional(),
      body: z.string().optional(),
    }),
  ),
  'pane.prompt_queued': paneDotted(TURN_EVENT_DATA['pane.prompt_queued']),
  'pane.prompt_accepted': paneDotted(TURN_EVENT_DATA['pane.prompt_accepted']),
  'pane.turn_started': paneDotted(TURN_EVENT_DATA['pane.turn_started']),
  'pane.turn_finished': paneDotted(TURN_EVENT_DATA['pane.turn_finished']),
  'rule.fired': dotted('server', 'rule', RULE_EVENT_DATA['rule.fired'], true),
  // notification.show (docs/protocol.md §5.6): what herdr would toast, for the views to show.
  'notification.shown': dotted('server', 'every', notificationSchema, true),
  'server.restored': dotted('server', 'restored', z.object({ workspaces: z.number().int().min(0), panes: z.number().int().min(0) }), false),
} as const satisfies Record<string, EntryShape>;

type Catalogue = typeof EVENT_CATALOGUE;
/** A kind `events.subscribe` takes. */
export type SubscriptionKind = keyof Catalogue;
export const SUBSCRIPTION_KINDS = Object.keys(EVENT_CATALOGUE) as SubscriptionKind[];

type Underscored<K extends string> = K extends `${infer Subject}.${infer Change}` ? `${Subject}_${Change}` : K;
/** The name a kind's lines carry. */
export type EventNameOf<K extends SubscriptionKind> = K extends SubscriptionKind ? (Catalogue[K]['line'] extends 'lifecycle' ? Underscored<K> : K) : never;
export type EventName = { [K in SubscriptionKind]: EventNameOf<K> }[SubscriptionKind];
export type LifecycleKind = { [K in SubscriptionKind]: Catalogue[K]['line'] extends 'lifecycle' ? K : never }[SubscriptionKind];
export type LifecycleEventName = EventNameOf<LifecycleKind>;
/** Each event's data as the code builds it (a lifecycle line's `type` is added by `lifecycleData`). */
export type Events = { [K in SubscriptionKind as EventNameOf<K>]: z.output<Catalogue[K]['data']> };
export type KindOfEvent<E extends EventName> = { [K in SubscriptionKind]: EventNameOf<K> extends E ? K : never }[SubscriptionKind];

export function eventNameOf<K extends SubscriptionKind>(kind: K): EventNameOf<K> {
  return (EVENT_CATALOGUE[kind].line === 'lifecycle' ? kind.replace('.', '_') : kind) as EventNameOf<K>;
}

const KIND_BY_EVENT = new Map<string, SubscriptionKind>(SUBSCRIPTION_KINDS.map((kind) => [eventNameOf(kind), kind]));

/** The kind an event line belongs to, or undefined for a name that is no event here. */
export function kindOfEvent(name: string): SubscriptionKind | undefined {
  return KIND_BY_EVENT.get(name);
}

export function isSubscriptionKind(name: string): name is SubscriptionKind {
  return Object.hasOwn(EVENT_CATALOGUE, name);
}

/** Subscribed with a dot, delivered with an underscore and `type` in data. */
export const LIFECYCLE_KINDS = SUBSCRIPTION_KINDS.filter((kind): kind is LifecycleKind => EVENT_CATALOGUE[kind].line === 'lifecycle');

type WaitableKind = { [K in SubscriptionKind]: Catalogue[K]['waitable'] extends true ? K : never }[SubscriptionKind];
export type WaitableEventName = EventNameOf<WaitableKind>;
/** The event names `events.wait` waits for (besides herdr's EventMatch kinds, event-wait.ts). */
export const WAITABLE_EVENTS = SUBSCRIPTION_KINDS.filter((kind): kind is WaitableKind => EVENT_CATALOGUE[kind].waitable).map(eventNameOf) as [
  WaitableEventName,
  ...WaitableEventName[],
];

/** The kinds whose subscriptions use `filter`. */
export type KindWithFilter<F extends SubscriptionFilter> = { [K in SubscriptionKind]: Catalogue[K]['filter'] extends F ? K : never }[SubscriptionKind];

// One subscription entry's schema per kind: `type` and the fields its filter takes.
type SpecSchemaOf<K> = K extends SubscriptionKind
  ? z.ZodObject<AsShape<{ type: z.ZodLiteral<K> } & (typeof SUBSCRIPTION_FILTERS)[Catalogue[K]['filter']]>, z.core.$strip>
  : never;
/** A zod shape TypeScript cannot see is one while the kind is generic. */
export type AsShape<T> = T extends z.core.$ZodShape ? T : never;
/** A non-empty list, as discriminatedUnion takes its options. */
export type Options<T> = [T, ...T[]];

const specSchema = (kind: SubscriptionKind) => z.object({ type: z.literal(kind), ...SUBSCRIPTION_FILTERS[EVENT_CATALOGUE[kind].filter] });

/** A subscription entry of a kind this server has (docs/protocol.md §9.1), one option per kind. */
// Built by a loop over the catalogue; the cast names the union the loop makes, kind by kind.
export const subscriptionSchema = z.discriminatedUnion('type', SUBSCRIPTION_KINDS.map(specSchema) as unknown as Options<SpecSchemaOf<SubscriptionKind>>);
/** A subscription spec after validation. */
export type CheckedSubscriptionSpec = z.output<typeof subscriptionSchema>;
/** A subscription as a client writes it (optional fields may be left out). */
export type SubscriptionSpec = z.input<typeof subscriptionSchema>;

/** An entry of a kind this server does not know: acknowledged, left out, and named in the ack (§9.1). */
export interface SkippedSubscription {
  index: number;
  type: string;
}

/**
 * One entry of `events.subscribe`'s list: a known kind is checked against its own
 * schema (its issues keep their place in the list); an entry naming a kind this
 * server does not have passes as `{skipped}`, so a client written for a newer herdr
 * still gets every kind this one has.
 */
export const subscriptionEntrySchema = z.looseObject({ type: z.string() }).transform((entry, context): CheckedSubscriptionSpec | { skipped: string } => {
  if (!isSubscriptionKind(entry.type)) return { skipped: entry.type };
  const parsed = subscriptionSchema.safeParse(entry);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) context.addIssue({ code: 'custom', message: issue.message, path: issue.path });
  return z.NEVER;
});
