/**
 * A rule's action, done through the server's own socket (loopback-caller.ts) as a client
 * would do it: `start` is agent.start unless an agent of that name is there, `prompt` is
 * agent.prompt only while the agent is idle or done, `queue` is agent.prompt (written now
 * or queued until the agent is idle). Prompts carry the key `rule:<id>:<firing>`, so the
 * turn says which firing wrote it.
 */
import { ProtocolError } from '../../protocol/errors.js';
import type { FiringCause, RuleAction, RuleSkipReason } from '../../protocol/rules.js';
import type { LoopbackCaller } from './loopback-caller.js';

export type ActionResult =
  | { outcome: 'done'; targetPaneId: string; agentInstanceId: string; turnId?: string }
  | { outcome: 'skipped'; reason: RuleSkipReason }
  | { outcome: 'failed'; reason: string };

export interface Firing {
  ruleId: string;
  number: number;
  cause: FiringCause;
  at: number;
}

export async function runAction(caller: LoopbackCaller, action: RuleAction, firing: Firing): Promise<ActionResult> {
  try {
    switch (action.type) {
      case 'start': {
        if (await agentThere(caller, action.agent)) return { outcome: 'skipped', reason: 'already_running' };
        const { agent } = await caller.call('agent.start', {
          name: action.agent,
          kind: action.kind,
          command: action.command,
          args: action.args,
          cwd: action.cwd,
          env: action.env,
        });
        return { outcome: 'done', targetPaneId: agent.terminal_id, agentInstanceId: agent.agent_instance_id };
      }
      case 'prompt': {
        const { agent } = await caller.call('agent.get', { target: action.agent });
        if (agent.agent_status !== 'idle' && agent.agent_status !== 'done') return { outcome: 'skipped', reason: 'agent_busy' };
        return await prompt(caller, action.agent, action.text, firing);
      }
      case 'queue':
        return await prompt(caller, action.agent, action.text, firing);
    }
  } catch (error) {
    if (error instanceof ProtocolError) return { outcome: 'failed', reason: `${error.code}: ${error.message}` };
    return { outcome: 'failed', reason: error instanceof Error ? error.message : String(error) };
  }
}

async function prompt(caller: LoopbackCaller, target: string, text: string, firing: Firing): Promise<ActionResult> {
  const { turn } = await caller.call('agent.prompt', { target, text: fillIn(text, firing), key: `rule:${firing.ruleId}:${firing.number}` });
  return { outcome: 'done', targetPaneId: turn.stable_id, agentInstanceId: turn.agent_instance_id, turnId: turn.turn_id };
}

async function agentThere(caller: LoopbackCaller, name: string): Promise<boolean> {
  try {
    await caller.call('agent.get', { target: name });
    return true;
  } catch (error) {
    if (error instanceof ProtocolError && error.code === 'agent_not_found') return false;
    throw error;
  }
}

/** `{{name}}` placeholders filled in from the firing; unknown ones are left as written. */
export function fillIn(text: string, firing: Firing): string {
  const { cause } = firing;
  const values: Record<string, string | undefined> = {
    pane_id: cause.pane_id,
    agent: cause.agent,
    status: cause.agent_status,
    exit_code: cause.exit_code === undefined ? undefined : String(cause.exit_code),
    matched_line: cause.matched_line,
    rule_id: firing.ruleId,
    fired_at: new Date(firing.at).toISOString(),
  };
  return text.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => values[name] ?? whole);
}
