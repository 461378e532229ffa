/**
 * An agent's status (docs/protocol.md §13.2): its state, with `done` for an agent
 * that finished a turn and that nobody has looked at since. Looking is a read, an
 * attach or a focus; a status change is an event of its own.
 */
import type { EventLine } from '../../protocol/events.js';
import type { AgentStatus } from '../../protocol/enums.js';
import type { EventBatch, EventHub } from '../event-hub.js';
import { paneMeta, paneRef } from '../ids.js';
import type { PaneRecord } from '../registry.js';
import type { Occupant } from './occupant.js';

export function agentStatus(pane: { occupant: Pick<Occupant, 'state' | 'unread'> }): AgentStatus {
  return pane.occupant.state === 'idle' && pane.occupant.unread ? 'done' : pane.occupant.state;
}

/** `pane.agent_status_changed` as the pane is now. */
export function statusLine(pane: PaneRecord): Omit<EventLine, 'seq'> {
  const data = { ...paneRef(pane), agent_status: agentStatus(pane), ...(pane.occupant.agent ? { agent: pane.occupant.agent } : {}) };
  return { event: 'pane.agent_status_changed', data };
}

/** `pane.agent_state_changed` as the pane is now. */
export function stateLine(pane: PaneRecord): Omit<EventLine, 'seq'> {
  const data = { ...paneRef(pane), state: pane.occupant.state, agent_status: agentStatus(pane), ...(pane.occupant.agent ? { agent: pane.occupant.agent } : {}) };
  return { event: 'pane.agent_state_changed', data };
}

/** Publishes the pane's status now (a shard's report changed it). */
export function publishStatus(events: EventHub, pane: PaneRecord): void {
  events.publish(statusLine(pane), paneMeta(pane));
}

/** Someone looked at the pane: a `done` agent is `idle` from now on (the event goes with the request's). */
export function lookedAt(pane: PaneRecord, batch: EventBatch): void {
  if (!pane.occupant.unread) return;
  pane.occupant.unread = false;
  if (pane.occupant.state === 'idle') batch.addLine(statusLine(pane), paneMeta(pane));
}

const AGGREGATE: readonly AgentStatus[] = ['blocked', 'done', 'working', 'idle', 'unknown'];

/** A workspace's status: its most urgent pane's (blocked, then done, working, idle). */
export function aggregateStatus(panes: readonly PaneRecord[]): AgentStatus {
  let best = AGGREGATE.length - 1;
  for (const pane of panes) best = Math.min(best, AGGREGATE.indexOf(agentStatus(pane)));
  return AGGREGATE[best] ?? 'unknown';
}
