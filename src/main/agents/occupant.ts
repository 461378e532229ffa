/**
 * The agent side of a pane, owned by src/main/agents: who occupies the pane as far as
 * the agent API is concerned (docs/protocol.md §13.1), the state its shard last reported,
 * the occupant's id and name, a launch that has not shown up yet, and its queued prompts.
 * The pane record holds one; what changes it lives beside it here (occupants.ts,
 * agent-status.ts, turns.ts) and in the shard reports that bring its state.
 */
import type { AgentSession, AgentSource, AgentState, PreviousAgentSession } from '../../protocol/objects.js';

export interface AgentStart {
  instanceId: string;
  name: string | undefined;
  kind: string;
}

export interface Occupant {
  /** A detected agent's name, or the label its hook reported. */
  agent: string | undefined;
  state: AgentState;
  /** When `state` took its value (ms since the epoch). */
  stateSince: number;
  source: AgentSource | undefined;
  message: string | undefined;
  session: AgentSession | undefined;
  /** Who reported `session` (the report's `source`). */
  sessionSource?: string | undefined;
  /** This occupant's id in the agent API; a new agent in the pane gets a new one. */
  instanceId: string | undefined;
  /** The name agent.start or agent.rename gave the occupant; it goes with it. */
  name: string | undefined;
  /** How many times `state` changed here on main. */
  stateChangeSeq: number;
  /** The shard's count of its turns to working or blocked at the last report: a prompt's turn starts with one after its Enter (SubmitResult.busyAtEnter). */
  shardBusyCount: number;
  /** Working or blocked since it was last idle: its next idle is a finished turn. */
  busy: boolean;
  /** Turned idle from working or blocked and not looked at since (read, attach, focus): agent_status `done`. */
  unread: boolean;
  /** agent.start launched an agent here that has not shown up yet: its coming id, name and kind. */
  start: AgentStart | undefined;
  /** Prompts waiting in its queue (turns.ts keeps the count). */
  queuedPrompts: number;
  /** The agent session of a restored pane that was not resumed into it. */
  previousSession: PreviousAgentSession | undefined;
}

/** A pane's occupant before any agent showed up. */
export function noOccupant(now = Date.now()): Occupant {
  return {
    agent: undefined,
    state: 'unknown',
    stateSince: now,
    source: undefined,
    message: undefined,
    session: undefined,
    instanceId: undefined,
    name: undefined,
    stateChangeSeq: 0,
    shardBusyCount: 0,
    busy: false,
    unread: false,
    start: undefined,
    queuedPrompts: 0,
    previousSession: undefined,
  };
}
