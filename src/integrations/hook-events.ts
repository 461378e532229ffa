/**
 * What an agent's hook event means for its pane (`herdr hook <agent> <event>`, which the hooks
 * `herdr integration install` writes run): a state to report, a session to record, a release,
 * or nothing. The events and their payloads are the CLIs' own (docs/agents.md). A session's
 * start records its session only: it fires before the CLI takes input (qwen: 60–150 ms before
 * its box is drawn), and idle is the screen rules' to say at start.
 */
import type { AgentState } from '../protocol/enums.js';
import type { InstallableTarget } from '../protocol/integration-targets.js';

export type HookMeaning =
  | { kind: 'report'; state: AgentState; message?: string }
  | { kind: 'session' }
  | { kind: 'release' }
  | undefined;

/** The session a payload names (every CLI with hooks sends both). */
export function sessionOf(payload: Record<string, unknown>): { id?: string; path?: string } {
  const id = typeof payload.session_id === 'string' ? payload.session_id : undefined;
  const path = typeof payload.transcript_path === 'string' ? payload.transcript_path : undefined;
  return { ...(id ? { id } : {}), ...(path ? { path } : {}) };
}

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

/** What an event means: the same every time, or read from its payload. */
type Reading = HookMeaning | ((payload: Record<string, unknown>) => HookMeaning);

const SESSION: HookMeaning = { kind: 'session' };
const RELEASE: HookMeaning = { kind: 'release' };
const WORKING: HookMeaning = { kind: 'report', state: 'working' };
const IDLE: HookMeaning = { kind: 'report', state: 'idle' };
const blocked = (message: string | undefined): HookMeaning => ({ kind: 'report', state: 'blocked', ...(message ? { message } : {}) });

/** Claude Code's hook events, and qwen's (the same system, more events). */
const CLAUDE_LIKE: Record<string, Reading> = {
  SessionStart: SESSION,
  UserPromptSubmit: WORKING,
  PreToolUse: WORKING,
  PostToolUse: WORKING,
  PostToolUseFailure: WORKING,
  PermissionRequest: (payload) => {
    const tool = text(payload.tool_name);
    return blocked(tool && `permission to use ${tool}`);
  },
  Notification: (payload) => {
    const type = text(payload.notification_type);
    if (type === 'permission_prompt') return blocked(text(payload.message));
    // Fired when it waits for input again: also after an interrupt, which fires no Stop.
    return type === 'idle_prompt' ? IDLE : undefined;
  },
  Stop: IDLE,
  StopFailure: IDLE,
  SessionEnd: RELEASE,
};

const CODEX: Record<string, Reading> = {
  SessionStart: SESSION,
  UserPromptSubmit: WORKING,
  PreToolUse: WORKING,
  PostToolUse: WORKING,
  PermissionRequest: (payload) => {
    const command = text((payload.tool_input as Record<string, unknown> | undefined)?.command);
    return blocked(command && `run ${command}`);
  },
  Stop: IDLE,
  Interrupt: IDLE,
  SessionEnd: RELEASE,
};

const GEMINI: Record<string, Reading> = {
  SessionStart: SESSION,
  BeforeAgent: WORKING,
  BeforeTool: WORKING,
  AfterTool: WORKING,
  Notification: (payload) => (text(payload.notification_type) === 'ToolPermission' ? blocked(text(payload.message)) : undefined),
  AfterAgent: IDLE,
  SessionEnd: RELEASE,
};

/** opencode's plugin and pi's extension report over the socket themselves: no table. */
const READINGS: Partial<Record<InstallableTarget, Record<string, Reading>>> = { claude: CLAUDE_LIKE, qwen: CLAUDE_LIKE, codex: CODEX, gemini: GEMINI };

/** The meaning of `event` for `agent`; undefined: nothing to report. */
export function hookMeaning(agent: InstallableTarget, event: string, payload: Record<string, unknown>): HookMeaning {
  const table = READINGS[agent];
  // Own keys only: an event named `constructor` is nothing.
  const reading = table && Object.hasOwn(table, event) ? table[event] : undefined;
  return typeof reading === 'function' ? reading(payload) : reading;
}

/** The hook events each command-hook integration registers. */
export const HOOK_EVENTS: Partial<Record<InstallableTarget, readonly string[]>> = {
  claude: ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Notification', 'Stop', 'SessionEnd'],
  qwen: ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'PermissionRequest', 'Notification', 'Stop', 'StopFailure', 'SessionEnd'],
  codex: ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PermissionRequest', 'PostToolUse', 'Stop', 'Interrupt', 'SessionEnd'],
  gemini: ['SessionStart', 'BeforeAgent', 'BeforeTool', 'AfterTool', 'Notification', 'AfterAgent', 'SessionEnd'],
};
