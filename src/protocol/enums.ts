/**
 * The protocol's closed sets of names (docs/protocol.md §4), kept free of zod
 * so that the CLI can offer them without loading the schemas.
 */
export const AGENT_STATES = ['idle', 'working', 'blocked', 'unknown'] as const;
export type AgentState = (typeof AGENT_STATES)[number];

export const AGENT_NAMES = [
  'pi', 'claude', 'codex', 'gemini', 'cursor', 'cline', 'opencode', 'copilot', 'kimi', 'droid', 'amp',
] as const;
export type AgentName = (typeof AGENT_NAMES)[number];

export const READ_SOURCES = ['visible', 'recent'] as const;
export type ReadSource = (typeof READ_SOURCES)[number];
