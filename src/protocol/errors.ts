/**
 * Every error code the server can answer with (docs/protocol.md §2), and the one error type
 * handlers throw. A handler that throws anything else is answered `internal_error`.
 */
export const ERROR_CODES = {
  invalid_request: 'malformed line, missing/mistyped envelope field or param, unknown method',
  workspace_not_found: 'no workspace with that compact or stable id',
  pane_not_found: 'no pane with that compact or stable id (also: the pane went away during a wait)',
  invalid_key: 'a key name outside the table of docs/protocol.md §7; nothing was sent',
  invalid_regex: 'a pattern RE2 rejects',
  timeout: 'a wait reached its deadline',
  pane_send_failed: 'the pane could not take the input (its process is gone)',
  workspace_create_failed: 'the workspace\'s first pane could not start (bad cwd, bad command)',
  pane_split_failed: 'the new pane could not start (bad cwd, bad command)',
  internal_error: 'a bug or a dead shard; the message says which',
  server_unavailable: 'the server is shutting down',
  invalid_agent: 'an agent report without an agent label (empty or blank)',
  events_lost: 'EXT: events.subscribe `since` names events no longer retained',
  invalid_target: 'a target this server does not have yet (tabs), or two targets that exclude each other',
  invalid_layout: 'a layout tree that is malformed or too big (panes, depth, ratio, command, env); nothing was started',
  layout_apply_failed: 'a leaf of the layout could not start; the message names it; nothing was left behind',
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export class ProtocolError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ProtocolError';
  }
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERROR_CODES, value);
}
