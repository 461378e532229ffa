/** The objects of docs/protocol.md §4 as they travel on the wire. */

export const AGENT_STATES = ['idle', 'working', 'blocked', 'unknown'] as const;
export type AgentState = (typeof AGENT_STATES)[number];

export const AGENT_NAMES = [
  'pi', 'claude', 'codex', 'gemini', 'cursor', 'cline', 'opencode', 'copilot', 'kimi', 'droid', 'amp',
] as const;
export type AgentName = (typeof AGENT_NAMES)[number];

export interface WorkspaceInfo {
  workspace_id: string;
  number: number;
  label: string;
  focused: boolean;
  pane_count: number;
  agent_state: AgentState;
  stable_id: string;
}

export interface PaneInfo {
  pane_id: string;
  workspace_id: string;
  focused: boolean;
  cwd?: string;
  agent?: AgentName;
  agent_state: AgentState;
  revision: number;
  stable_id: string;
  cols: number;
  rows: number;
  pid: number;
  title?: string;
}

export type ReadSource = 'visible' | 'recent';

export interface PaneRead {
  pane_id: string;
  workspace_id: string;
  source: ReadSource;
  text: string;
  revision: number;
  truncated: boolean;
  stable_id: string;
}

export interface ShardStats {
  shard_id: number;
  workspaces: number;
  panes: number;
  bytes_parsed: number;
  matchers: number;
  heap_used_bytes: number;
}

export interface ServerStats {
  version: string;
  uptime_ms: number;
  workspaces: number;
  panes: number;
  connections: number;
  subscriptions: number;
  waits: number;
  matchers: number;
  events_emitted: number;
  rss_bytes: number;
  heap_used_bytes: number;
  loop_delay_p99_ms: number;
  /** The worst main-thread event-loop stall over the last 10–20 s. */
  loop_delay_max_ms: number;
  /** CPU time (user + system) the whole server process has used, all threads. */
  cpu_ms: number;
  shards: ShardStats[];
}
