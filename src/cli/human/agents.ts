/** Agents and their turns as a person reads them (docs/protocol.md §13.4): by name, kind and stable pane id (`w2:p1`). */
import type { MethodResults } from '../../protocol/methods.js';
import type { AgentInfo } from '../../protocol/objects.js';
import type { TurnInfo } from '../../protocol/turns.js';
import { alignedTable } from '../table.js';
import { terminalWidth } from '../reader.js';
import { count, directory, fieldLines, firstLine, markedTable, quoted, seconds, since } from './fields.js';

/** `asker (claude)`, or the kind alone for an agent with no name. */
const who = (agent: AgentInfo): string => (agent.name === undefined ? agent.agent : `${agent.name} (${agent.agent})`);

/** What a command takes to name it again: its name, else its pane. */
const target = (agent: AgentInfo): string => agent.name ?? agent.terminal_id;

/** Its status, `starting` while agent.start launched it and it has not shown up. */
const statusOf = (agent: AgentInfo): string => (agent.launch_pending ? 'starting' : agent.agent_status);

/** A blocked agent's question, and where it is answered. */
const blockedNote = (agent: AgentInfo): string =>
  agent.agent_status === 'blocked' ? `: ${agent.agent_message ? `"${agent.agent_message}" ` : ''}(answer it with: herdr inbox)` : '';

export function agentTable({ agents }: MethodResults['agent.list']): string {
  if (agents.length === 0) return 'no agents (start one with: herdr agent start NAME --kind KIND)\n';
  return markedTable(
    ['AGENT', 'KIND', 'PANE', 'STATUS', 'FOR', 'QUEUE', 'DIRECTORY', 'MESSAGE'],
    agents.map((agent) => ({
      focused: agent.focused,
      cells: [
        agent.name ?? '-',
        agent.agent,
        agent.terminal_id,
        statusOf(agent),
        since(agent.agent_state_since),
        agent.queued_prompts === undefined ? '-' : String(agent.queued_prompts),
        directory(agent.cwd),
        (agent.agent_message ?? '').replace(/\s+/g, ' '),
      ],
    })),
  );
}

/** One agent in a few `key: value` lines (`agent get`). */
export function agentFields({ agent }: { agent: AgentInfo }): string {
  return fieldLines([
    ['agent', who(agent)],
    ['pane', `${agent.terminal_id}${quoted(agent.label)}${agent.focused ? ' (focused)' : ''}`],
    ['status', `${statusOf(agent)} for ${since(agent.agent_state_since)}`],
    ['message', agent.agent_message],
    ['queued', agent.queued_prompts !== undefined && count(agent.queued_prompts, 'prompt')],
    ['directory', directory(agent.cwd)],
    ['title', agent.title ?? agent.terminal_title],
    ['instance', agent.agent_instance_id],
  ]);
}

/** `agent start`: `started agent asker (claude) in pane w2:p1, idle`. */
export function agentStarted({ agent }: MethodResults['agent.start']): string {
  if (agent.launch_pending) return `launched agent ${who(agent)} in pane ${agent.terminal_id}; not ready yet (herdr agent wait ${target(agent)})\n`;
  return `started agent ${who(agent)} in pane ${agent.terminal_id}, ${agent.agent_status}${blockedNote(agent)}\n`;
}

/** `agent prompt` without --wait: where the prompt is now. */
export function agentPrompted({ agent, turn }: MethodResults['agent.prompt']): string {
  const name = target(agent);
  switch (turn.state) {
    case 'queued': {
      const ahead = turn.position ?? 0;
      return `prompt queued as turn ${turn.turn_id} for ${name}, ${ahead === 0 ? 'next in line' : `${count(ahead, 'turn')} ahead of it`}\n`;
    }
    case 'sent':
    case 'started':
      return `prompt sent to ${name} as turn ${turn.turn_id}\n`;
    default:
      return `turn ${turn.turn_id} for ${name} is ${turnState(turn)}\n`;
  }
}

/** `agent prompt --wait`: how the turn ended, and what the agent does now. */
export function promptWaited({ agent, turn }: MethodResults['agent.prompt']): string {
  const name = target(agent);
  const took = turn.duration_ms === undefined ? '' : ` in ${seconds(turn.duration_ms)}`;
  const head = turn.state === 'finished' ? `turn ${turn.turn_id} for ${name} finished${took}` : `turn ${turn.turn_id} for ${name} is ${turnState(turn)}`;
  const read = agent.agent_status === 'done' ? ` (its answer: herdr agent read ${name})` : '';
  return `${head}; ${name} is ${agent.agent_status}${blockedNote(agent)}${read}\n`;
}

/** `finished: done`, `queued, 2 ahead`, `sent`. */
function turnState(turn: TurnInfo): string {
  if (turn.state === 'queued') return `queued, ${turn.position ?? 0} ahead`;
  return turn.outcome === undefined ? turn.state : `${turn.state}: ${turn.outcome}`;
}

/** One turn in a few `key: value` lines (`agent turn`). */
export function turnFields({ turn }: MethodResults['agent.turn.get']): string {
  return fieldLines([
    ['turn', `${turn.turn_id}, ${turnState(turn)}`],
    ['pane', turn.stable_id],
    ['prompt', `"${firstLine(turn.text)}"`],
    ['key', turn.key],
    ['created', `${since(turn.created_at)} ago`],
    ['took', turn.duration_ms !== undefined && seconds(turn.duration_ms)],
    ['enters', turn.enters !== undefined && turn.enters > 1 && String(turn.enters)],
    ['evidence', turn.evidence && turn.evidence.join(' | ')],
  ]);
}

/** `agent queue`: the prompts waiting, next first. */
export function queueTable({ turns }: MethodResults['agent.queue.list'], agent: string): string {
  if (turns.length === 0) return `nothing queued for ${agent}\n`;
  return alignedTable(
    ['TURN', 'WAITING', 'KEY', 'PROMPT'],
    turns.map((turn) => [turn.turn_id, since(turn.created_at), turn.key ?? '-', firstLine(turn.text)]),
    terminalWidth(),
  );
}

/** `agent cancel`. */
export function turnCancelled({ turn }: MethodResults['agent.queue.cancel']): string {
  return turn.state === 'cancelled' ? `took back turn ${turn.turn_id}: it will not be written to ${turn.stable_id}\n` : `turn ${turn.turn_id} is ${turnState(turn)}\n`;
}

/** `agent wait`: the status it waited for. */
export const agentWaited = ({ agent }: MethodResults['agent.wait']): string => `${target(agent)} is ${agent.agent_status}${blockedNote(agent)}\n`;

/** `agent rename`. */
export const agentRenamed = ({ agent }: MethodResults['agent.rename']): string =>
  agent.name === undefined ? `the agent in pane ${agent.terminal_id} has no name now\n` : `the agent in pane ${agent.terminal_id} is named ${agent.name}\n`;

/** `agent focus`. */
export const agentFocused = ({ agent }: MethodResults['agent.focus']): string => `focused pane ${agent.terminal_id} of ${who(agent)}\n`;
