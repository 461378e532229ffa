/**
 * The protocol's closed sets of names (docs/protocol.md §4), kept free of zod
 * so that the CLI can offer them without loading the schemas.
 */
export const AGENT_STATES = ['idle', 'working', 'blocked', 'unknown'] as const;
export type AgentState = (typeof AGENT_STATES)[number];

/**
 * The agent status of herdr's current protocol (docs/protocol.md §13): the state, with
 * `done` for an agent that finished a turn (turned idle from working or blocked) and
 * that nobody has looked at since (no read, attach or focus).
 */
export const AGENT_STATUSES = ['idle', 'working', 'blocked', 'done', 'unknown'] as const;
export type AgentStatus = (typeof AGENT_STATUSES)[number];

/** herdr's agent labels (docs/protocol.md §10.1). */
export const AGENT_NAMES = [
  'pi', 'claude', 'codex', 'gemini', 'cursor', 'devin', 'agy', 'cline', 'omp', 'mastracode', 'opencode', 'copilot', 'kimi',
  'kiro', 'droid', 'amp', 'grok', 'hermes', 'kilo', 'qodercli', 'qwen', 'letta', 'maki', 'muse', 'jcode',
] as const;
export type AgentName = (typeof AGENT_NAMES)[number];

/** Where `pane.split` puts the new pane beside its target. */
export const SPLIT_DIRECTIONS = ['right', 'down'] as const;
export type SplitDirection = (typeof SPLIT_DIRECTIONS)[number];

/** Which way `pane.resize` moves a border (herdr's PaneDirection). */
export const PANE_DIRECTIONS = ['left', 'right', 'up', 'down'] as const;
export type PaneDirection = (typeof PANE_DIRECTIONS)[number];

/**
 * What `pane.read` and the waits read (docs/protocol.md §6): the screen, the last rows, the
 * last rows with wrapped ones joined, and the screen as the agent checks read it.
 */
export const READ_SOURCES = ['visible', 'recent', 'recent_unwrapped', 'detection'] as const;
export type ReadSource = (typeof READ_SOURCES)[number];

/** Where a person's right click in a pane goes (herdr's PaneRightClickTarget, `pane.input.set`): the viewer's own (default) or the program's. */
export const RIGHT_CLICK_TARGETS = ['herdr', 'pane'] as const;
export type RightClickTarget = (typeof RIGHT_CLICK_TARGETS)[number];

/** Where a pane's agent state came from (docs/protocol.md §10): the agent's hook, the program's own status sequence, or the screen rules. */
export const AGENT_SOURCES = ['hook', 'status', 'screen'] as const;
export type AgentSource = (typeof AGENT_SOURCES)[number];

/** How a program asked for attention (docs/protocol.md §10.6). */
export const NOTIFICATION_KINDS = ['bell', 'osc9', 'osc777', 'osc99'] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];
