/**
 * The agents agent.start can launch by kind (docs/protocol.md §13.4): the program each
 * kind runs. The names are the detector's (protocol/enums.ts AGENT_NAMES), so an agent
 * started by kind is also recognised by its process.
 */
import type { AgentName } from '../../protocol/enums.js';

export const AGENT_PROGRAMS: Record<AgentName, string> = {
  pi: 'pi',
  claude: 'claude',
  codex: 'codex',
  gemini: 'gemini',
  cursor: 'cursor-agent',
  cline: 'cline',
  opencode: 'opencode',
  copilot: 'copilot',
  kimi: 'kimi',
  droid: 'droid',
  amp: 'amp',
};

export function isAgentKind(kind: string): kind is AgentName {
  return Object.hasOwn(AGENT_PROGRAMS, kind);
}
