/** `events.subscribe` (docs/protocol.md §9); events.wait is event-wait.ts. Each subscription runs its kind's filter (protocol/event-catalogue.ts). */
import { ProtocolError } from '../../protocol/errors.js';
import { type CheckedSubscriptionSpec, EVENT_CATALOGUE, type KindWithFilter, type SkippedSubscription, type SubscriptionFilter, eventNameOf } from '../../protocol/event-catalogue.js';
import type { EventLine } from '../../protocol/events.js';
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

type SpecWith<F extends SubscriptionFilter> = Extract<CheckedSubscriptionSpec, { type: KindWithFilter<F> }>;

/** Whether the subscription's kind uses `filter` (its fields follow from the filter). */
function uses<F extends SubscriptionFilter>(filter: F, sub: CheckedSubscriptionSpec): sub is SpecWith<F> {
  return EVENT_CATALOGUE[sub.type].filter === filter;
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
  /** Counts the subscribers of `notification.shown` (notification.show says whether anyone was told). */
  notifications: { watch(): () => void };
}

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

  router.register('events.subscribe', (params, context: RequestContext) => {
    const { connection, afterResponse } = context;
    try {
      // Kinds this server does not have are left out and named in the ack (§9.1).
      const skipped: SkippedSubscription[] = [];
      const subscriptions = params.subscriptions.flatMap((entry, index): CheckedSubscriptionSpec[] => {
        if ('skipped' in entry) {
          skipped.push({ index, type: entry.skipped });
          return [];
        }
        return [entry];
      });
      for (const sub of subscriptions) if (uses('output_match', sub)) checkPattern(sub.match);
      // Bind every pane now: subscriptions follow their pane across renumbering.
      const outputs = subscriptions.flatMap((sub) => (uses('output_match', sub) ? [{ sub, pane: registry.resolvePane(sub.pane_id) }] : []));
      const states: StateWatch[] = subscriptions.flatMap((sub): StateWatch[] => {
        if (!uses('agent_state', sub) && !uses('agent_status', sub)) return [];
        const pane = sub.pane_id === undefined ? undefined : registry.resolvePane(sub.pane_id);
        const value = sub.type === 'pane.agent_state_changed' ? sub.state : sub.agent_status;
        return [{ event: sub.type, pane, value, initial: sub.initial ?? false }];
      });
      // Events of one pane or of all.
      const paneEvents: Filter[] = subscriptions.flatMap((sub) => {
        if (!uses('pane', sub)) return [];
        const pane = sub.pane_id === undefined ? undefined : registry.resolvePane(sub.pane_id);
        const name = eventNameOf(sub.type);
        return [(event: LoggedEvent) => event.line.event === name && (!pane || event.meta.paneUid === pane.uid)];
      });
      // Every line of the kind, under its line's name (`pane.created` arrives as `pane_created`).
      const every = new Set<string>(subscriptions.flatMap((sub) => (uses('every', sub) ? [eventNameOf(sub.type)] : [])));
      const rules: Filter[] = subscriptions.flatMap((sub) =>
        uses('rule', sub) ? [(event: LoggedEvent) => event.line.event === 'rule.fired' && (sub.rule_id === undefined || (event.line.data as { rule_id: string }).rule_id === sub.rule_id)] : [],
      );
      const restored = subscriptions.some((sub) => uses('restored', sub));
      const filters: Filter[] = [
        (event) => every.has(event.line.event) || (restored && event.line.event === 'server.restored'),
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
      if (every.has('notification.shown')) stream.onClose(parts.notifications.watch());

      connection.streaming = true;
      connection.stopReading();
      afterResponse(() => stream.start());
      return { type: 'subscription_started', ...(skipped.length > 0 ? { skipped } : {}) };
    } catch (error) {
      afterResponse(() => connection.end());
      throw error;
    }
  });
}
