/** `prompt_agent`: `agent.prompt`, with the server's own wait until the turn ends (no polling). */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { METHOD_PARAMS } from '../../protocol/methods.js';
import type { McpContext } from '../context.js';
import { withProgress } from '../progress.js';
import { answer, guarded } from '../tool-result.js';
import { type AgentView, agentView, agentViewSchema } from '../views.js';
import { toolInput } from '../tool-input.js';
import { AGENT_STATUSES, type AgentStatus } from '../../protocol/enums.js';

const promptParams = METHOD_PARAMS['agent.prompt'];
/** The wait's fields, as agent.wait takes them. */
const waitObject = METHOD_PARAMS['agent.wait'].pick({ until: true, timeout_ms: true });
const input = promptParams.extend({
  // What a model sends for "and wait": true. An object narrows the wait.
  wait: z
    .union([z.boolean(), waitObject])
    .optional()
    .describe('true: answer when the turn ends (done, idle or blocked); {"until": ["done"], "timeout_ms": 600000}: that narrowed; absent or false: answer at once'),
});

export function registerPromptAgent(server: McpServer, context: McpContext): void {
  server.registerTool(
    'prompt_agent',
    {
      title: 'Prompt an agent',
      description:
        'Types `text` and Enter into an agent (target: its name, instance id or pane id) when it is ready for a prompt; ' +
        'while it works, waits for an answer or is still starting, the prompt is queued and written when it is idle again, in order. ' +
        'The answer carries the turn (its id and state: queued, sent, started, finished). ' +
        'With `wait: true` (or `{}`) the answer comes when that turn ends: the agent is done/idle or blocked on a question ' +
        '(`until` narrows it, `timeout_ms` bounds it). Without `wait` it answers at once with a receipt, not a result: ' +
        'the agent\'s status in it is from before the prompt (`agent_status_at_submission`). ' +
        '`key`: a retry with the same key returns the same turn and types nothing.',
      inputSchema: toolInput(input),
      outputSchema: z.object({
        agent: agentViewSchema.describe('with wait: the agent when its turn ended; without: as it was when the prompt was taken, before its write'),
        turn: z.object({ turn_id: z.string(), state: z.string(), outcome: z.string().optional(), position: z.number().int().optional() }),
        agent_status_at_submission: z
          .enum(AGENT_STATUSES)
          .optional()
          .describe('without wait: the agent\'s status when the prompt was taken, before its write: what it did before this prompt, not its result'),
      }),
    },
    ({ target, wait, ...params }, extra) =>
      guarded(async () => {
        const { host, id } = context.resolve(target);
        const waitFor = wait === true ? {} : wait === false ? undefined : wait;
        const answered = await withProgress(extra, 'waiting for the turn to end', () =>
          host.client.call('agent.prompt', { target: id, ...params, ...(waitFor === undefined ? {} : { wait: waitFor }) }),
        );
        const { agent, turn } = answered;
        const view = agentView(agent, (pane) => context.qualify(host, pane));
        const receipt = {
          turn_id: turn.turn_id,
          state: turn.state,
          ...(turn.outcome === undefined ? {} : { outcome: turn.outcome }),
          ...(turn.position === undefined ? {} : { position: turn.position }),
        };
        const before = answered.agent_status_at_submission;
        const structured = { agent: view, turn: receipt, ...(before === undefined ? {} : { agent_status_at_submission: before }) };
        return answer(structured, promptText(view, receipt, waitFor !== undefined, before));
      }),
  );
}

/**
 * The answer's text. After a wait: how the turn ended and the agent now. Without one, a receipt:
 * where the prompt is, and the agent's status only as what it was before the prompt.
 */
function promptText(view: AgentView, turn: { turn_id: string; state: string; outcome?: string; position?: number }, waited: boolean, before: AgentStatus | undefined): string {
  const name = view.name ?? view.pane;
  const question = view.question ? ` — ${view.question}` : '';
  if (waited) return `${name}: ${view.status}${question} (turn ${turn.turn_id} ${turn.state}${turn.outcome === undefined ? '' : `: ${turn.outcome}`})`;
  if (turn.state === 'queued') return `${name}: prompt queued as turn ${turn.turn_id}, ${turn.position ?? 0} ahead; not written yet (${name} is ${view.status}${question})`;
  if (turn.state === 'sent' || turn.state === 'started') {
    return `${name}: prompt sent as turn ${turn.turn_id}; no result yet${before === undefined ? '' : ` (before it, ${name} was ${before})`}`;
  }
  return `${name}: turn ${turn.turn_id} ${turn.state}${turn.outcome === undefined ? '' : `: ${turn.outcome}`}; ${name} is ${view.status}${question}`;
}
