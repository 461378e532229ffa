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

/** Claude Code's hook events, and qwen's (the same system, more events). */
function claudeLike(event: string, payload: Record<string, unknown>): HookMeaning {
  switch (event) {
    case 'SessionStart':
      return { kind: 'session' };
    case 'UserPromptSubmit':
    case 'PreToolUse':
    case 'PostToolUse':
    case 'PostToolUseFailure':
      return { kind: 'report', state: 'working' };
    case 'PermissionRequest': {
      const tool = text(payload.tool_name);
      return { kind: 'report', state: 'blocked', ...(tool ? { message: `permission to use ${tool}` } : {}) };
    }
    case 'Notification': {
      const type = text(payload.notification_type);
      if (type === 'permission_prompt') return { kind: 'report', state: 'blocked', ...(text(payload.message) ? { message: text(payload.message) } : {}) };
      // Fired when it waits for input again: also after an interrupt, which fires no Stop.
      if (type === 'idle_prompt') return { kind: 'report', state: 'idle' };
      return undefined;
    }
    case 'Stop':
    case 'StopFailure':
      return { kind: 'report', state: 'idle' };
    case 'SessionEnd':
      return { kind: 'release' };
    default:
      return undefined;
  }
}

function codex(event: string, payload: Record<string, unknown>): HookMeaning {
  switch (event) {
    case 'SessionStart':
      return { kind: 'session' };
    case 'UserPromptSubmit':
    case 'PreToolUse':
    case 'PostToolUse':
      return { kind: 'report', state: 'working' };
    case 'PermissionRequest': {
      const command = text((payload.tool_input as Record<string, unknown> | undefined)?.command);
      return { kind: 'report', state: 'blocked', ...(command ? { message: `run ${command}` } : {}) };
    }
    case 'Stop':
    case 'Interrupt':
      return { kind: 'report', state: 'idle' };
    case 'SessionEnd':
      return { kind: 'release' };
    default:
      return undefined;
  }
}

function gemini(event: string, payload: Record<string, unknown>): HookMeaning {
  switch (event) {
    case 'SessionStart':
      return { kind: 'session' };
    case 'BeforeAgent':
    case 'BeforeTool':
    case 'AfterTool':
      return { kind: 'report', state: 'working' };
    case 'Notification':
      return text(payload.notification_type) === 'ToolPermission' ? { kind: 'report', state: 'blocked', ...(text(payload.message) ? { message: text(payload.message) } : {}) } : undefined;
    case 'AfterAgent':
      return { kind: 'report', state: 'idle' };
    case 'SessionEnd':
      return { kind: 'release' };
    default:
      return undefined;
  }
}

/** The meaning of `event` for `agent`; undefined: nothing to report. */
export function hookMeaning(agent: InstallableTarget, event: string, payload: Record<string, unknown>): HookMeaning {
  if (agent === 'claude' || agent === 'qwen') return claudeLike(event, payload);
  if (agent === 'codex') return codex(event, payload);
  if (agent === 'gemini') return gemini(event, payload);
  // opencode's plugin and pi's extension report over the socket themselves.
  return undefined;
}

/** The hook events each command-hook integration registers. */
export const HOOK_EVENTS: Partial<Record<InstallableTarget, readonly string[]>> = {
  claude: ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Notification', 'Stop', 'SessionEnd'],
  qwen: ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'PermissionRequest', 'Notification', 'Stop', 'StopFailure', 'SessionEnd'],
  codex: ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PermissionRequest', 'PostToolUse', 'Stop', 'Interrupt', 'SessionEnd'],
  gemini: ['SessionStart', 'BeforeAgent', 'BeforeTool', 'AfterTool', 'Notification', 'AfterAgent', 'SessionEnd'],
};
