/**
 * How to bring an agent back to its conversation after a restart, from the
 * session its hook reported (`agent_session_id` / `agent_session_path`), one
 * entry per agent like the detection rules. `{id}` and `{path}` stand for the
 * reported values; an entry whose value was not reported does not apply.
 */
import type { AgentSession } from '../protocol/objects.js';

interface ResumeRule {
  agent: string;
  argv: string[];
}

export const AGENT_RESUME_RULES: readonly ResumeRule[] = [
  { agent: 'claude', argv: ['claude', '--resume', '{id}'] },
  { agent: 'codex', argv: ['codex', 'resume', '{id}'] },
  { agent: 'gemini', argv: ['gemini', '--resume', '{id}'] },
  { agent: 'opencode', argv: ['opencode', '--session', '{id}'] },
  { agent: 'copilot', argv: ['copilot', '--resume', '{id}'] },
  { agent: 'amp', argv: ['amp', 'threads', 'continue', '{id}'] },
  { agent: 'pi', argv: ['pi', '--session', '{path}'] },
];

/** The argv that resumes `agent`'s `session`, or undefined when the table has no way with what was reported. */
export function resumeArgv(agent: string, session: AgentSession): string[] | undefined {
  const rule = AGENT_RESUME_RULES.find((candidate) => candidate.agent === agent);
  if (!rule) return undefined;
  const values: Record<string, string | undefined> = { '{id}': session.id, '{path}': session.path };
  const argv: string[] = [];
  for (const word of rule.argv) {
    if (!(word in values)) argv.push(word);
    else {
      const value = values[word];
      if (value === undefined || value === '') return undefined;
      argv.push(value);
    }
  }
  return argv;
}
