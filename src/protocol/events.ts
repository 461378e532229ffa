/** Event lines of docs/protocol.md §9.2, as written to subscribers. */
import type { AgentName, AgentState, PaneInfo, PaneRead, WorkspaceInfo } from './objects.js';

interface PaneRef {
  pane_id: string;
  workspace_id: string;
}

/** Lifecycle events: underscore names, `type` repeated in `data`. */
export interface LifecycleEvents {
  workspace_created: { workspace: WorkspaceInfo };
  workspace_closed: { workspace_id: string };
  workspace_focused: { workspace_id: string };
  pane_created: { pane: PaneInfo };
  pane_closed: PaneRef;
  pane_focused: PaneRef;
  pane_exited: PaneRef & { exit_code?: number; signal?: number };
  pane_agent_detected: PaneRef & { agent?: AgentName };
}

export type LifecycleEventName = keyof LifecycleEvents;

/** Parameterised events: dotted names, no `type`. */
export interface StreamEvents {
  'pane.output_matched': { pane_id: string; matched_line: string; read: PaneRead };
  'pane.agent_state_changed': PaneRef & { state: AgentState; agent?: AgentName };
}

export type EventName = LifecycleEventName | keyof StreamEvents;

export interface EventLine {
  event: EventName | 'subscription_overflow';
  data: object;
  /** EXT: server-wide sequence number; later events have larger ones. */
  seq?: number;
}

export function lifecycleData<E extends LifecycleEventName>(
  event: E,
  data: LifecycleEvents[E],
): { type: E } & LifecycleEvents[E] {
  return { type: event, ...data };
}

/** An event line typed by its name, as a client receives it. */
export type TypedEventLine =
  | { [E in LifecycleEventName]: { event: E; data: { type: E } & LifecycleEvents[E]; seq?: number } }[LifecycleEventName]
  | { [E in keyof StreamEvents]: { event: E; data: StreamEvents[E]; seq?: number } }[keyof StreamEvents]
  | { event: 'subscription_overflow'; data: { dropped_after_seq?: number }; seq?: number };
