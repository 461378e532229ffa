/**
 * Every error code the server can answer with (docs/protocol.md §2), and the one error type
 * handlers throw. A handler that throws anything else is answered `internal_error`.
 */
export const ERROR_CODES = {
  invalid_request: 'malformed line, missing/mistyped envelope field or param, unknown method',
  workspace_not_found: 'no workspace with that compact or stable id',
  pane_not_found: 'no pane with that compact or stable id (also: the pane went away during a wait)',
  tab_not_found: 'no tab with that id (`w1:t2`; §5.3)',
  invalid_key: 'a key name outside the table of docs/protocol.md §7; nothing was sent',
  invalid_regex: 'a pattern RE2 rejects',
  timeout: 'a wait reached its deadline',
  pane_send_failed: 'the pane could not take the input (its process is gone)',
  workspace_create_failed: 'the workspace\'s first pane could not start (bad cwd, bad command)',
  pane_split_failed: 'the new pane could not start (bad cwd, bad command)',
  tab_create_failed: 'the new tab\'s pane could not start (bad cwd, bad command)',
  internal_error: 'a bug or a dead shard; the message says which',
  server_unavailable: 'the server is shutting down',
  invalid_agent: 'an agent report without an agent label (empty or blank)',
  events_lost: 'EXT: events.subscribe `since` names events no longer retained',
  unsupported_event_wait_match: 'events.wait for a herdr event kind this server emits no event for; the message lists the ones it can wait for',
  agent_not_found: 'no running agent is named by that target (instance id, pane id or name)',
  agent_not_running: 'the agent a wait or prompt was pinned to left its pane (exited, replaced, pane closed)',
  agent_not_ready: 'the agent cannot take this now (still starting, or its state is unknown to every detector)',
  agent_blocked: 'the agent waits for an answer to a question; answer it (agent.send_keys) first',
  empty_agent_prompt: 'agent.prompt with empty or blank text',
  agent_prompt_stalled: 'the prompt was written but the agent never left its state within the stall window',
  invalid_agent_name: 'an agent name outside [a-z][a-z0-9_-]{0,31}',
  agent_name_taken: 'another running agent has that name',
  turn_not_found: 'EXT: no turn with that id (or it finished long ago and is no longer kept)',
  turn_cancelled: 'EXT: agent.prompt with a wait whose turn was cancelled (agent.queue.cancel) before it was written',
  turn_not_queued: 'EXT: agent.queue.cancel of a turn that is no longer queued (written already, finished or cancelled)',
  rule_not_found: 'EXT: rules.remove of a rule no one added (or removed already)',
  invalid_rule: 'EXT: rules.add with a schedule or time zone that does not parse, a name another rule has, an output rule whose pane is not there, or 1000 rules already; nothing was added',
  approval_not_blocked: 'EXT: approvals.answer for a pane whose agent is not blocked; nothing was typed',
  approval_changed: 'EXT: approvals.answer whose question_hash no longer matches the question on the screen; nothing was typed',
  approval_option_not_found: 'EXT: approvals.answer with an option the menu does not have, or for a pane with no menu on its screen; nothing was typed',
  unsupported_agent_kind: 'agent.start with a kind the server does not know',
  integration_unsupported: 'EXT: integration.install or uninstall of an agent CLI this server has no integration for; nothing was written',
  integration_failed: 'EXT: an integration could not be written (a configuration file that is not what it should be, a folder that cannot be written); nothing more was changed',
  invalid_agent_argument: 'an agent argument with a control character',
  agent_pane_busy: 'agent.start into a pane that is not an idle shell (an agent or a command is in front)',
  agent_start_failed: 'the started agent exited or left before it was ready for input',
  metadata_limit: 'EXT: a metadata report would give a pane or workspace more than 32 tokens or 16 sources; nothing was changed',
  invalid_target: 'a target this server does not have yet (tabs), or two targets that exclude each other',
  invalid_layout: 'a layout tree that is malformed or too big (panes, depth, ratio, command, env); nothing was started',
  layout_apply_failed: 'a leaf of the layout could not start; the message names it; nothing was left behind',
  git_unavailable: 'EXT: git could not be run by the server (not installed or not on its PATH)',
  git_failed: 'EXT: git refused or took too long (a bad base, a bad branch name, a locked worktree); the message carries git\'s own words',
  not_a_git_repository: 'EXT: the directory given, or the workspace\'s, is not inside a git repository',
  worktree_branch_checked_out: 'EXT: the branch is already checked out in another worktree',
  worktree_branch_exists: 'EXT: worktree.create with a base for a branch that already exists',
  worktree_path_exists: 'EXT: worktree.create into a path that already exists',
  worktree_not_found: 'EXT: worktree.open: the repository has no worktree at that path or on that branch',
  worktree_dirty: 'EXT: worktree.remove without force of a worktree with changes or untracked files; nothing was removed',
  not_a_worktree_workspace: 'EXT: worktree.remove of a workspace that was not made for a linked worktree',
  unsupported: 'EXT: a method of herdr\'s that acts on the screen herdr draws (window title, popups, agent views, pane graphics) or hands its live panes to a new process; nothing was done, and the message says why (docs/protocol.md §5.5)',
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export class ProtocolError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** The message as a current-dialect client reads it, when the ids in it differ (docs/protocol.md §15.3). */
    readonly currentMessage?: string,
  ) {
    super(message);
    this.name = 'ProtocolError';
  }
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERROR_CODES, value);
}
