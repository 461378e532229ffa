/** `events.subscribe` (docs/protocol.md §9); events.wait is event-wait.ts. */
import { TURN_EVENTS, type TurnEventName } from '../../protocol/turns.js';
import { ProtocolError } from '../../protocol/errors.js';
import type { EventLine } from '../../protocol/events.js';
import { LIFECYCLE_KINDS, type LifecycleKind } from '../../protocol/enums.js';
import { type CheckedSubscriptionSpec, describeParamsError, subscriptionSchema } from '../../protocol/methods.js';
import type { AgentState, AgentStatus } from '../../protocol/objects.js';
import { agentStatus, stateLine, statusLine } from '../agents/agent-status.js';
import { EventStream } from '../event-stream.js';
import { readWindow } from '../../protocol/read-window.js';
import type { EventHub, LoggedEvent } from '../event-hub.js';
import type { OpenCounts } from '../open-counts.js';
import { checkPattern } from '../patterns.js';
import type { PaneRecord, Registry } from '../registry.js';
import type { RequestContext, Router } from '../router.js';
import { type OutputWatchParts, watchOutput } from '../waits/output-watch.js';

type Filter = (event: LoggedEvent) => boolean;

function isLifecycleKind(type: string): type is LifecycleKind {
  return (LIFECYCLE_KINDS as readonly string[]).includes(type);
}

interface StateWatch {
  /** `pane.agent_state_changed` (filtered by `state`) or `pane.agent_status_changed` (by `agent_status`). */
  event: 'pane.agent_state_changed' | 'pane.agent_status_changed';
  pane: PaneRecord | undefined;
  value: AgentState | AgentStatus | undefined;
  initial: boolean;
}

export interface SubscriptionParts extends OutputWatchParts {
  registry: Registry;
  events: EventHub;
  open: OpenCounts;
  /** `server.restored`, when this server started from a snapshot. */
  restoredEvent(): LoggedEvent | undefined;
}

/** Subscription kinds that are the event's own name, of one pane (`pane_id`) or of every pane. */
const PANE_EVENT_KINDS = new Set<string>(['pane.command_finished', 'pane.output_activity', 'pane.notification', ...TURN_EVENTS]);
type PaneEventSpec = Extract<CheckedSubscriptionSpec, { type: 'pane.command_finished' | 'pane.output_activity' | 'pane.notification' | TurnEventName }>;
const isPaneEvent = (sub: CheckedSubscriptionSpec): sub is PaneEventSpec => PANE_EVENT_KINDS.has(sub.type);

export function registerSubscriptionHandlers(router: Router, parts: SubscriptionParts): void {
  const { registry, events } = parts;

  const valueOf = (watch: StateWatch, data: { state?: string; agent_status?: string }) =>
    watch.event === 'pane.agent_state_changed' ? data.state : data.agent_status;

  const stateFilter = (watch: StateWatch): Filter => (event) => {
    if (event.line.event !== watch.event) return false;
    if (watch.pane && event.meta.paneUid !== watch.pane.uid) return false;
    return watch.value === undefined || valueOf(watch, event.line.data as { state?: string }) === watch.value;
  };

  const currentState = (watch: StateWatch, pane: PaneRecord): EventLine =>
    events.stamp(watch.event === 'pane.agent_state_changed' ? stateLine(pane) : statusLine(pane));
  const currentValue = (watch: StateWatch, pane: PaneRecord) =>
    watch.event === 'pane.agent_state_changed' ? pane.occupant.state : agentStatus(pane);

  const parseSubscriptions = (raw: unknown[]): CheckedSubscriptionSpec[] =>
    raw.map((entry, index) => {
      const parsed = subscriptionSchema.safeParse(entry);
      if (!parsed.success) {
        throw new ProtocolError('invalid_request', `invalid subscription ${index}: ${describeParamsError(parsed.error)}`);
      }
      return parsed.data;
    });

  router.register('events.subscribe', (params, context: RequestContext) => {
    const { connection, afterResponse } = context;
    try {
      const subscriptions = parseSubscriptions(params.subscriptions);
      for (const sub of subscriptions) if (sub.type === 'pane.output_matched') checkPattern(sub.match);
      // Bind every pane now: subscriptions follow their pane across renumbering.
      const outputs = subscriptions.flatMap((sub) =>
        sub.type === 'pane.output_matched' ? [{ sub, pane: registry.resolvePane(sub.pane_id) }] : [],
      );
      const states: StateWatch[] = subscriptions.flatMap((sub): StateWatch[] => {
        if (sub.type !== 'pane.agent_state_changed' && sub.type !== 'pane.agent_status_changed') return [];
        const pane = sub.pane_id === undefined ? undefined : registry.resolvePane(sub.pane_id);
        const value = sub.type === 'pane.agent_state_changed' ? sub.state : sub.agent_status;
        return [{ event: sub.type, pane, value, initial: sub.initial ?? false }];
      });
      // Shell, notification and turn events, of one pane or of all.
      const paneEvents: Filter[] = subscriptions.flatMap((sub) => {
        if (!isPaneEvent(sub)) return [];
        const pane = sub.pane_id === undefined ? undefined : registry.resolvePane(sub.pane_id);
        return [(event: LoggedEvent) => event.line.event === sub.type && (!pane || event.meta.paneUid === pane.uid)];
      });
      // Subscribed as `pane.created`, delivered as `pane_created`.
      const lifecycle = new Set<string>(
        subscriptions.flatMap((sub) => (isLifecycleKind(sub.type) ? [sub.type.replace('.', '_')] : [])),
      );
      const rules: Filter[] = subscriptions.flatMap((sub) =>
        sub.type === 'rule.fired' ? [(event: LoggedEvent) => event.line.event === 'rule.fired' && (sub.rule_id === undefined || (event.line.data as { rule_id: string }).rule_id === sub.rule_id)] : [],
      );
      const restored = subscriptions.some((sub) => sub.type === 'server.restored');
      const filters: Filter[] = [
        (event) => lifecycle.has(event.line.event) || (restored && event.line.event === 'server.restored'),
        ...states.map(stateFilter),
        ...paneEvents,
        ...rules,
      ];
      const wanted = (event: LoggedEvent) => filters.some((filter) => filter(event));

      let replay: LoggedEvent[] = [];
      if (params.since !== undefined) {
        const retained = events.since(params.since);
        if (!retained) throw new ProtocolError('events_lost', `events after seq ${params.since} are no longer retained`);
        replay = retained.filter(wanted);
      }

      const stream = new EventStream(connection);
      for (const event of replay) stream.send(event.line);
      // A server that started from a snapshot tells every subscriber who asks, once, right after the ack.
      const restoredEvent = parts.restoredEvent();
      if (restored && restoredEvent && !replay.includes(restoredEvent)) stream.send(restoredEvent.line);
      for (const watch of states) {
        if (!watch.initial) continue;
        const panes = watch.pane ? [watch.pane] : registry.workspaces.flatMap((w) => registry.panesInLayoutOrder(w));
        for (const pane of panes) if (watch.value === undefined || currentValue(watch, pane) === watch.value) stream.send(currentState(watch, pane));
      }
      stream.onClose(events.listen((event) => wanted(event) && stream.send(event.line)));
      for (const { sub, pane } of outputs) {
        const stop = watchOutput(parts, pane, readWindow(sub), sub.match, {
          matched: (result) => stream.send(events.stamp({ event: 'pane.output_matched', data: result })),
        });
        stream.onClose(stop);
      }
      stream.onClose(parts.open.open('subscriptions', subscriptions.length));

      connection.streaming = true;
      connection.stopReading();
      afterResponse(() => stream.start());
      return { type: 'subscription_started' };
    } catch (error) {
      afterResponse(() => connection.end());
      throw error;
    }
  });
}
