/**
 * `agent.prompt` (docs/protocol.md §13.3): the prompt's text and Enter in one write
 * (multi-line text as a bracketed paste when the agent turned that on), then, when
 * asked, a wait in the same request until the turn it started has ended. A prompt is
 * refused while the agent waits for an answer; a prompt that never moved the agent
 * out of its state within the stall window is reported, not waited on forever.
 */
import type { AgentStatus } from '../../protocol/enums.js';
import { ProtocolError } from '../../protocol/errors.js';
import type { AgentInfo } from '../../protocol/objects.js';
import { DEFAULT_PROMPT_STALL_MS } from '../../protocol/methods/agents.js';
import { agentStatus } from '../agents/agent-status.js';
import { waitOnAgent } from '../agents/agent-waits.js';
import { stillThere } from '../agents/occupants.js';
import type { Connection } from '../connection.js';
import { paneIds } from '../ids.js';
import { type AgentOperationParts, type AgentOperations, SETTLED_STATUSES, notRunning, statusIn } from './agents.js';

export interface PromptRequest {
  target: string;
  text: string;
  /** Absent: answer once the prompt is written. */
  wait: { until: readonly AgentStatus[]; timeoutMs: number | undefined } | undefined;
  stallMs: number | undefined;
}

export async function promptAgent(parts: AgentOperationParts, agents: AgentOperations, request: PromptRequest, connection: Connection): Promise<AgentInfo> {
  if (request.text.trim() === '') throw new ProtocolError('empty_agent_prompt', 'the prompt is empty');
  const agent = agents.resolve(request.target);
  const { pane } = agent;
  const where = paneIds(pane).pane_id;
  if (pane.agent === undefined) throw new ProtocolError('agent_not_ready', `the agent in pane ${where} is still starting`);
  if (pane.agentState === 'blocked') {
    const question = pane.agentMessage ? `: ${pane.agentMessage}` : '';
    throw new ProtocolError('agent_blocked', `the agent in pane ${where} waits for an answer${question}; nothing was typed`);
  }
  const { wait } = request;
  if (wait && pane.agentState === 'unknown') {
    throw new ProtocolError('agent_not_ready', `the state of the agent in pane ${where} is unknown (no detector, hook or status describes it), so a wait could not see its turn end`);
  }
  const seqAtWrite = pane.stateChangeSeq;
  await parts.panes.input(pane, request.text, ['Enter'], true);
  if (!wait) return agents.info(pane);

  const until = wait.until.length > 0 ? wait.until : SETTLED_STATUSES;
  const stallMs = request.stallMs ?? DEFAULT_PROMPT_STALL_MS;
  const writtenAt = performance.now();
  return waitOnAgent<AgentInfo>(parts, connection, {
    pane,
    timeoutMs: wait.timeoutMs,
    timeoutMessage: `timed out waiting for the agent in pane ${where} to be ${until.join(' or ')} after the prompt`,
    // A timer may fire a hair before its delay on the loop's clock.
    lookAgainAfterMs: [stallMs + 2],
    look: () => {
      if (!stillThere(parts.registry, agent)) return { fail: notRunning(agent) };
      // Only a state reached after the write ends the prompt's turn.
      const moved = pane.stateChangeSeq > seqAtWrite;
      if (moved && statusIn(agentStatus(pane), until)) return { settle: agents.info(pane) };
      if (!moved && pane.agentState !== 'working' && performance.now() - writtenAt >= stallMs) {
        return {
          fail: new ProtocolError(
            'agent_prompt_stalled',
            `the agent in pane ${where} stayed ${pane.agentState} for ${stallMs} ms after the prompt was written (did it take the input?)`,
          ),
        };
      }
      return undefined;
    },
  });
}
