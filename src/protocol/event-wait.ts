/**
 * What `events.wait` waits for (docs/protocol.md §5): our event names (the waitable
 * entries of event-catalogue.ts, the names event lines carry) and herdr's current EventMatch kinds (its
 * src/api/schema/events.rs), each mapped onto the event line this server emits for it.
 * Also the two answers: `event_matched` (ours, the 0.2.0 dialect) carries the line as
 * subscribers get it; `wait_matched` (herdr's, the current dialect) carries herdr's
 * envelope, `{event: kind, data: {type: kind, …}}`.
 */
import { z } from 'zod';
import { EVENT_CATALOGUE } from './event-catalogue.js';
import { type EventLine, type EventName, eventLineSchema } from './events.js';

/**
 * herdr's EventMatch kinds, each with the event line this server emits for it, or null
 * where it emits none (a wait for it is refused). Supporting one is naming its line here.
 */
export const HERDR_WAIT_KINDS = {
  workspace_created: 'workspace_created',
  workspace_updated: 'workspace_updated',
  workspace_closed: 'workspace_closed',
  workspace_renamed: 'workspace_renamed',
  workspace_moved: 'workspace_moved',
  workspace_focused: 'workspace_focused',
  tab_created: 'tab_created',
  tab_closed: 'tab_closed',
  tab_renamed: 'tab_renamed',
  tab_moved: 'tab_moved',
  tab_focused: 'tab_focused',
  pane_created: 'pane_created',
  pane_closed: 'pane_closed',
  pane_focused: 'pane_focused',
  pane_moved: 'pane_moved',
  pane_output_changed: null,
  pane_exited: 'pane_exited',
  pane_agent_detected: 'pane_agent_detected',
  pane_agent_status_changed: 'pane.agent_status_changed',
} as const satisfies Record<string, EventName | null>;
export type HerdrWaitKind = keyof typeof HERDR_WAIT_KINDS;

function isHerdrKind(name: string): name is HerdrWaitKind {
  return Object.hasOwn(HERDR_WAIT_KINDS, name);
}

/** herdr's kind for one of our event lines, if herdr has one. */
export function herdrKindOf(line: string): HerdrWaitKind | undefined {
  return (Object.keys(HERDR_WAIT_KINDS) as HerdrWaitKind[]).find((kind) => HERDR_WAIT_KINDS[kind] === line);
}

/** The event line a wait for `name` (ours or herdr's) watches for; undefined for a herdr kind this server has no event for. */
export function waitedLine<N extends string>(name: N, ours: readonly N[]): EventName | undefined {
  if (isHerdrKind(name)) return HERDR_WAIT_KINDS[name] ?? undefined;
  return (ours as readonly string[]).includes(name) ? (name as string as EventName) : undefined;
}

/** Every name a wait can be for, ours first: the ones the refusals list. */
export function supportedWaitNames(ours: readonly string[]): string[] {
  return [...new Set([...ours, ...(Object.keys(HERDR_WAIT_KINDS) as HerdrWaitKind[]).filter((kind) => HERDR_WAIT_KINDS[kind] !== null)])];
}

/**
 * A line as herdr's `wait_matched` carries it: named by herdr's kind with `type`
 * repeated in `data` (lifecycle lines already are); a line herdr has no kind for is
 * left as it is.
 */
export function herdrEnvelope(line: EventLine): { event: string; data: object; seq?: number } {
  const kind = herdrKindOf(line.event);
  if (kind === undefined || kind === line.event) return line;
  return { ...line, event: kind, data: { type: kind, ...line.data } };
}

const seq = z.number().int().min(1).optional();
/** The one line herdr names differently from us: `pane.agent_status_changed` as `pane_agent_status_changed`. */
const herdrStatusLine = z.object({
  event: z.literal('pane_agent_status_changed'),
  data: z.object({ type: z.literal('pane_agent_status_changed'), ...EVENT_CATALOGUE['pane.agent_status_changed'].data.shape }),
  seq,
});

/** Named, so that the published schema spells the lines out once for both answers. */
const eventLine = eventLineSchema.meta({ id: 'EventLine' });
const waitMatchedEvent = z.union([herdrStatusLine, eventLine]);
/** What `wait_matched` carries, as a client receives it. */
export type WaitMatchedEvent = z.output<typeof waitMatchedEvent>;

export const eventWaitResult = z
  .union([
    z.object({ type: z.literal('event_matched'), event: eventLine }).describe('the 0.2.0 dialect: the line as subscribers get it'),
    z.object({ type: z.literal('wait_matched'), event: waitMatchedEvent }).describe('the current dialect: herdr\'s envelope'),
  ])
  .meta({ type: 'object' });
