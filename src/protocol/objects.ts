/**
 * The objects of docs/protocol.md §4 as they travel on the wire. Schemas, so
 * that `herdr schema` (docs/protocol.schema.json) describes results from the
 * same definitions the code's types come from.
 */
import { z } from 'zod';
import { AGENT_SOURCES, AGENT_STATES, AGENT_STATUSES, READ_SOURCES, RIGHT_CLICK_TARGETS } from './enums.js';
import { paneScrollInfoSchema } from './pane-scroll.js';

export * from './enums.js';

const count = z.number().int().min(0);

/** Named tokens a client reported for display (`pane.report_metadata`, `workspace.report_metadata`), merged over its sources. */
export const reportedTokensSchema = z
  .record(z.string(), z.string())
  .describe('EXT: display-only named tokens reported with pane.report_metadata / workspace.report_metadata, the newest report winning each name');
/** The git checkout a workspace was made for by `worktree.create` / `worktree.open` (docs/protocol.md §14). */
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
  agent_status: z.enum(AGENT_STATUSES).describe('the workspace\'s aggregate agent status (`done` ranks with an unseen idle)'),
  stable_id: z.string(),
  // Optional to the client (older servers have no tabs); this server always sends them.
  tab_count: z.number().int().min(1).optional().describe('EXT (herdr current), always sent here: how many tabs it has (§5.3)'),
  active_tab_id: z.string().optional().describe('EXT (herdr current), always sent here: its active tab, `w1:t1` (§5.3)'),
  tokens: reportedTokensSchema.optional(),
  worktree: workspaceWorktreeSchema.optional().describe('present on a workspace made by worktree.create or worktree.open'),
});
export type WorkspaceInfo = z.output<typeof workspaceInfoSchema>;

/** herdr's `TabInfo` (docs/protocol.md §5.3). */
export const tabInfoSchema = z.object({
  tab_id: z.string(),
  workspace_id: z.string(),
  number: z.number().int().min(1).describe('its 1-based position among its workspace\'s tabs'),
  label: z.string(),
  focused: z.boolean().describe('the active tab of the active workspace'),
  pane_count: z.number().int().min(1),
  agent_status: z.enum(AGENT_STATUSES).describe('the aggregate of its panes, as a workspace\'s'),
});
export type TabInfo = z.output<typeof tabInfoSchema>;

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
  agent_status: z.enum(AGENT_STATUSES).describe('agent_state with `done`: turned idle from a turn and not looked at since'),
  agent_state_since: z.number().int().min(0).describe('EXT: when agent_state took its current value, in ms since the Unix epoch'),
  agent_source: z.enum(AGENT_SOURCES).optional().describe('EXT: where agent_state came from; absent when nothing is known'),
  agent_message: z.string().optional().describe('EXT: the reason a hook or status report gave (a blocked agent\'s question)'),
  agent_session: agentSessionSchema.optional().describe('EXT: the agent\'s own session, as its hook reported it'),
  last_exit_code: z.number().int().optional().describe('EXT: exit code of the last command the shell reported (OSC 133 D)'),
  output_active: z.boolean().optional().describe('EXT: the pane printed within the last 2 s (§10.7); always sent here'),
  last_output_at: z.number().int().min(0).optional().describe('EXT: when it last printed, ms since the Unix epoch; absent until it has'),
  output_active_since: z.number().int().min(0).optional().describe('EXT: while output_active, when this stretch of printing began'),
  queued_prompts: z.number().int().min(1).optional().describe('EXT: prompts waiting in its agent\'s queue (§13.7); absent when none'),
  restored: z.literal(true).optional().describe('EXT: brought back from a snapshot after a restart, and nothing new printed since'),
  previous_agent_session: previousAgentSessionSchema
    .optional()
    .describe('EXT: a restored pane\'s agent session it was not resumed into (without --resume-agents)'),
  revision: count,
  stable_id: z.string(),
  // Optional to the client (older servers have no tabs); this server always sends tab_id and terminal_id.
  tab_id: z.string().optional().describe('EXT (herdr current), always sent here: the tab it is in, `w1:t1` (§5.3)'),
  foreground_cwd: z.string().optional().describe('EXT (herdr current): the directory of the process in front (its own when nothing else is)'),
  terminal_id: z.string().optional().describe("EXT (herdr current), always sent here: the terminal's identity; here its stable id"),
  terminal_title: z.string().optional().describe('EXT (herdr current): the window title the program set (OSC 0/2)'),
  agent_instance_id: z.string().optional().describe('EXT: the agent occupant\'s id in the agent API (§13.1)'),
  scroll: paneScrollInfoSchema.optional().describe('EXT (herdr current), always sent here: where its view is scrolled to over its history (pane.scroll, §5.4)'),
  right_click: z.enum(RIGHT_CLICK_TARGETS).optional().describe('EXT, always sent here: where a person\'s right click in the pane goes (pane.input.set, §5.6): `herdr` the viewer\'s (default), `pane` the program\'s'),
  cols: z.number().int().min(1),
  rows: z.number().int().min(1),
  pid: z.number().int(),
  title: z.string().optional(),
  tokens: reportedTokensSchema.optional(),
  display_agent: z.string().optional().describe('EXT: the agent name a client reported for display (pane.report_metadata)'),
  state_labels: z
    .partialRecord(z.enum(AGENT_STATUSES), z.string())
    .optional()
    .describe('EXT: display text per state a client reported (pane.report_metadata)'),
});
export type PaneInfo = z.output<typeof paneInfoSchema>;

/**
 * An agent as the agent API shows it (docs/protocol.md §13): the pane that hosts it, what
 * it is, its status, and the ids that pin it (`agent_instance_id` names this occupant
 * only; `state_change_seq` counts its state changes).
 */
export const agentInfoSchema = z.object({
  agent_instance_id: z.string().describe('this occupant of the pane; a new agent in the same pane gets a new one'),
  name: z.string().optional().describe('the name agent.start or agent.rename gave it; follows the occupant'),
  agent: agentLabelSchema.describe('its kind: a detected agent\'s name, or the label a hook or status reported'),
  agent_status: z.enum(AGENT_STATUSES),
  agent_state: z.enum(AGENT_STATES).describe('EXT: the 0.2.0 state (no `done`)'),
  agent_state_since: z.number().int().min(0).describe('EXT: when agent_state took its value, ms since the Unix epoch'),
  agent_source: z.enum(AGENT_SOURCES).optional().describe('EXT: who decided the state: hook, status or screen'),
  agent_message: z.string().optional().describe('EXT: a blocked agent\'s question, as its hook or status gave it'),
  state_change_seq: z.number().int().min(0).describe('how many times this pane\'s agent state changed'),
  queued_prompts: z.number().int().min(1).optional().describe('EXT: prompts waiting in its queue (§13.7); absent when none'),
  launch_pending: z.literal(true).optional().describe('agent.start launched it and it has not shown up yet'),
  pane_id: z.string(),
  workspace_id: z.string(),
  terminal_id: z.string().describe('the pane\'s stable id'),
  focused: z.boolean(),
  cwd: z.string().optional(),
  label: z.string().optional().describe('the pane\'s own label'),
  title: z.string().optional().describe('the title pane.report_metadata reported for it'),
  terminal_title: z.string().optional().describe('the window title the program set'),
  revision: count,
  tab_id: z.string().optional().describe('herdr current: the tab of its pane, `w1:t1`; sent on the current dialect only (§15.3)'),
});
export type AgentInfo = z.output<typeof agentInfoSchema>;

/** What `agent.explain` answers: which layer decided the state, and on what evidence. */
export const agentExplanationSchema = z.object({
  pane_id: z.string(),
  agent: agentLabelSchema.optional(),
  agent_state: z.enum(AGENT_STATES),
  agent_status: z.enum(AGENT_STATUSES),
  decided_by: z.enum(['hook', 'status', 'screen', 'nothing']),
  held: z
    .string()
    .optional()
    .describe('why the state is not what the deciding layer says of the pane alone: a screen no rule matched, a hold, a blocked waiting for its menu, a prompt drawn before its program reads keys'),
  detected: z.string().optional().describe('the agent the foreground process is, by name'),
  foreground_pgid: z.number().int().optional(),
  hook: z
    .object({ source: z.string(), agent: z.string(), state: z.enum(AGENT_STATES), message: z.string().optional() })
    .optional()
    .describe('the hook report in charge'),
  status: z
    .object({ state: z.enum(AGENT_STATES), app: z.string().optional(), message: z.string().optional() })
    .optional()
    .describe('the program status (OSC 7501) in charge'),
  screen: z
    .object({
      agent: z.string(),
      matched_rule: z.number().int().min(0).optional().describe('the first rule that held; absent: `otherwise` decided'),
      raw_state: z.enum(AGENT_STATES),
      otherwise: z.enum(AGENT_STATES),
      rules: z.array(
        z.object({
          index: count,
          state: z.enum(AGENT_STATES),
          condition: z.string(),
          matched: z.boolean(),
          evidence: z.array(z.string()).describe('the screen lines that made it hold'),
        }),
      ),
    })
    .optional()
    .describe('the screen rules of the detected agent, each against the screen now'),
});
export type AgentExplanationInfo = z.output<typeof agentExplanationSchema>;

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
  tab_id: z.string().optional().describe('EXT (herdr current), always sent here: the tab of the pane (§5.3)'),
  format: z.enum(['text', 'ansi']).optional().describe('EXT (herdr current): `ansi` when the escapes were kept (strip_ansi false)'),
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
