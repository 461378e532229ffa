/**
 * `agent.prompt` (docs/protocol.md §13.3, §13.7): a turn for the agent (agents/turns.ts),
 * written at once when the agent is ready for it, else queued until it is; answered with
 * its receipt, or, when asked, after a wait in the same request until the turn it started
 * has ended. A prompt that never moved the agent out of its state within the stall window
 * is reported, not waited on forever.
 */
import type { AgentStatus } from '../../protocol/enums.js';
import { ProtocolError } from '../../protocol/errors.js';
import type { AgentInfo } from '../../protocol/objects.js';
import { DEFAULT_PROMPT_STALL_MS } from '../../protocol/methods/agents.js';
import type { TurnInfo } from '../../protocol/turns.js';
import { agentStatus } from '../agents/agent-status.js';
import { waitOnAgent } from '../agents/agent-waits.js';
import { stillThere } from '../agents/occupants.js';
import type { TurnBook } from '../agents/turns.js';
import type { Connection } from '../connection.js';
import { errorNaming } from '../ids.js';
import { type AgentOperationParts, type AgentOperations, SETTLED_STATUSES, notRunning, statusIn } from './agents.js';

export interface PromptRequest {
  target: string;
  text: string;
  /** Absent: answer with the receipt (once written, when it could be written now). */
  wait: { until: readonly AgentStatus[]; timeoutMs: number | undefined } | undefined;
  stallMs: number | undefined;
  /** A client key: a retry with it returns the same turn and writes nothing. */
  key: string | undefined;
}

export async function promptAgent(
  parts: AgentOperationParts & { turns: TurnBook },
  agents: AgentOperations,
  request: PromptRequest,
  connection: Connection,
): Promise<{ agent: AgentInfo; turn: TurnInfo; atSubmission?: AgentStatus }> {
  if (request.text.trim() === '') throw new ProtocolError('empty_agent_prompt', 'the prompt is empty');
  const agent = agents.resolve(request.target);
  const { pane } = agent;
  const { wait } = request;
  if (wait && pane.occupant.agent !== undefined && pane.occupant.state === 'unknown' && pane.occupant.source !== 'screen') {
    throw errorNaming(
      'agent_not_ready',
      (name) => `the state of the agent in pane ${name(pane)} is unknown (no detector, hook or status describes it), so a wait could not see its turn end`,
    );
  }
  const stallMs = request.stallMs ?? DEFAULT_PROMPT_STALL_MS;
  const { turn, fresh } = parts.turns.prompt(agent, request.text, { key: request.key, stallMs });
  // The receipt: the agent as it was when the prompt was taken (its write has only begun), named so, never the turn's result.
  if (!wait) return { agent: agents.info(pane), turn: parts.turns.info(turn), ...(fresh ? { atSubmission: agentStatus(pane) } : {}) };

  const until = wait.until.length > 0 ? wait.until : SETTLED_STATUSES;
  const info = await waitOnAgent<AgentInfo>(parts, connection, {
    pane,
    timeoutMs: wait.timeoutMs,
    timedOut: () =>
      errorNaming('timeout', (name) => `timed out waiting for the agent in pane ${name(pane)} to be ${until.join(' or ')} after the prompt (turn ${turn.id} is ${turn.state})`),
    look: () => {
      if (turn.outcome === 'exited' || !stillThere(parts.registry, agent)) return { fail: notRunning(agent) };
      if (turn.outcome === 'cancelled') return { fail: new ProtocolError('turn_cancelled', `turn ${turn.id} was cancelled before it was written`) };
      if (turn.outcome === 'stalled') {
        return {
          fail: errorNaming(
            'agent_prompt_stalled',
            (name) => `the agent in pane ${name(pane)} stayed ${pane.occupant.state} for ${turn.stallMs} ms after the prompt was written (did it take the input?)`,
          ),
        };
      }
      // Only a state reached after the write ends the prompt's turn.
      const moved = turn.state === 'started' || turn.state === 'finished';
      return moved && statusIn(agentStatus(pane), until) ? { settle: agents.info(pane) } : undefined;
    },
  });
  return { agent: info, turn: parts.turns.info(turn) };
}
