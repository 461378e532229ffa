/**
 * The objects of docs/protocol.md §4 as they travel on the wire. Schemas, so
 * that `herdr schema` (docs/protocol.schema.json) describes results from the
 * same definitions the code's types come from.
 */
import { z } from 'zod';
import { AGENT_SOURCES, AGENT_STATES, READ_SOURCES } from './enums.js';

export * from './enums.js';

const count = z.number().int().min(0);

/** The git checkout a workspace was made for by `worktree.create` / `worktree.open` (docs/protocol.md §13). */
export const workspaceWorktreeSchema = z.object({
  repo_key: z.string().describe('the repository\'s key: the same for all its worktrees, different for another repository'),
  repo_name: z.string(),
  repo_root: z.string().describe('the main checkout of the repository (for a bare repository, its directory)'),
  checkout_path: z.string().describe('the worktree the workspace works in'),
  is_linked_worktree: z.boolean().describe('false for the repository\'s main checkout'),
});
export type WorkspaceWorktree = z.output<typeof workspaceWorktreeSchema>;

export const workspaceInfoSchema = z.object({
  workspace_id: z.string(),
  number: z.number().int().min(1),
  label: z.string(),
  focused: z.boolean(),
  pane_count: count,
  agent_state: z.enum(AGENT_STATES),
  stable_id: z.string(),
  worktree: workspaceWorktreeSchema.optional().describe('present on a workspace made by worktree.create or worktree.open'),
});
export type WorkspaceInfo = z.output<typeof workspaceInfoSchema>;

/** A detected agent's name (AGENT_NAMES) or any label an agent's hook reported for itself. */
export const agentLabelSchema = z.string().min(1);

export const agentSessionSchema = z.object({ id: z.string().optional(), path: z.string().optional() });
export type AgentSession = z.output<typeof agentSessionSchema>;

/** A restored pane's agent session that it was not resumed into: which agent, and its session. */
export const previousAgentSessionSchema = agentSessionSchema.extend({ agent: z.string() });
export type PreviousAgentSession = z.output<typeof previousAgentSessionSchema>;

export const paneInfoSchema = z.object({
  pane_id: z.string(),
  workspace_id: z.string(),
  focused: z.boolean(),
  cwd: z.string().optional(),
  label: z.string().optional().describe('the pane\'s own label (`label` at creation, `pane.rename`), absent when none'),
  agent: agentLabelSchema.optional(),
  agent_state: z.enum(AGENT_STATES),
  agent_state_since: z.number().int().min(0).describe('EXT: when agent_state took its current value, in ms since the Unix epoch'),
  agent_source: z.enum(AGENT_SOURCES).optional().describe('EXT: where agent_state came from; absent when nothing is known'),
  agent_message: z.string().optional().describe('EXT: the reason a hook or status report gave (a blocked agent\'s question)'),
  agent_session: agentSessionSchema.optional().describe('EXT: the agent\'s own session, as its hook reported it'),
  last_exit_code: z.number().int().optional().describe('EXT: exit code of the last command the shell reported (OSC 133 D)'),
  restored: z.literal(true).optional().describe('EXT: brought back from a snapshot after a restart, and nothing new printed since'),
  previous_agent_session: previousAgentSessionSchema
    .optional()
    .describe('EXT: a restored pane\'s agent session it was not resumed into (without --resume-agents)'),
  revision: count,
  stable_id: z.string(),
  cols: z.number().int().min(1),
  rows: z.number().int().min(1),
  pid: z.number().int(),
  title: z.string().optional(),
});
export type PaneInfo = z.output<typeof paneInfoSchema>;

/** The pair of ids every pane event carries. */
export const paneRefFields = { pane_id: z.string(), workspace_id: z.string() };

export const paneReadSchema = z.object({
  pane_id: z.string(),
  workspace_id: z.string(),
  source: z.enum(READ_SOURCES),
  text: z.string(),
  revision: count,
  truncated: z.boolean(),
  stable_id: z.string(),
});
export type PaneRead = z.output<typeof paneReadSchema>;

/** A pane's output matched (`pane.wait_for_output`'s answer, `pane.output_matched`'s data): the top-most matching line and the read it was found in. */
export const outputMatchSchema = z.object({ pane_id: z.string(), matched_line: z.string(), read: paneReadSchema });
export type OutputMatch = z.output<typeof outputMatchSchema>;

export const shardStatsSchema = z.object({
  shard_id: count,
  workspaces: count,
  panes: count,
  bytes_parsed: count,
  matchers: count,
  heap_used_bytes: count,
  history_bytes: count.describe('EXT: what the panes\' histories hold outside the heap; drops once a quiet shard seals them'),
});
export type ShardStats = z.output<typeof shardStatsSchema>;

export const serverStatsSchema = z.object({
  version: z.string(),
  uptime_ms: z.number().min(0),
  workspaces: count,
  panes: count,
  connections: count,
  subscriptions: count,
  streams: count.describe('EXT: open pane.stream connections'),
  waits: count,
  matchers: count,
  events_emitted: count,
  rss_bytes: count,
  heap_used_bytes: count,
  loop_delay_p99_ms: z.number().min(0),
  loop_delay_max_ms: z.number().min(0).describe('the worst main-thread event-loop stall over the last 10–20 s'),
  cpu_ms: z.number().min(0).describe('CPU time (user + system) the whole server process has used, all threads'),
  shards: z.array(shardStatsSchema),
  shard_deaths: count.describe('shards that crashed, ran out of memory or stopped answering since the server started'),
  shard_restarts_pending: count.describe('replacements of dead shards waiting out the restart backoff'),
  last_shard_death: z
    .object({ shard_id: count, reason: z.string(), ms_ago: count })
    .optional()
    .describe('the most recent shard death, if any'),
  last_snapshot: z
    .object({ bytes: count, write_ms: z.number().min(0), ms_ago: count })
    .optional()
    .describe('EXT: the last session snapshot written (docs/persistence.md): its size, how long the round took, how long ago'),
});
export type ServerStats = z.output<typeof serverStatsSchema>;
