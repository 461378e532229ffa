/**
 * The agents agent.start can launch by kind (docs/protocol.md §13.4): the program each
 * kind runs. The names are the detector's (enums.ts AGENT_NAMES), so an agent started by
 * kind is also recognised by its process. Here, not in main, so that clients offer the
 * same list the server takes (herdr web's "+ agent").
 */
import type { AgentName } from './enums.js';

/** The detector's names herdr's `agent start` does not offer (jcode is detected, not started by kind). */
type NotStartable = 'jcode';
export type AgentKind = Exclude<AgentName, NotStartable>;

export const AGENT_PROGRAMS: Record<AgentKind, string> = {
  pi: 'pi',
  claude: 'claude',
  codex: 'codex',
  gemini: 'gemini',
  cursor: 'cursor-agent',
  devin: 'devin',
  agy: 'agy',
  cline: 'cline',
  omp: 'omp',
  mastracode: 'mastracode',
  opencode: 'opencode',
  copilot: 'copilot',
  kimi: 'kimi',
  kiro: 'kiro-cli',
  droid: 'droid',
  amp: 'amp',
  grok: 'grok',
  hermes: 'hermes',
  kilo: 'kilo',
  qodercli: 'qodercli',
  qwen: 'qwen',
  letta: 'letta',
  maki: 'maki',
  muse: 'muse',
};

export function isAgentKind(kind: string): kind is AgentKind {
  return Object.hasOwn(AGENT_PROGRAMS, kind);
}
