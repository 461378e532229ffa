/** `prompt_agent`: `agent.prompt`, with the server's own wait until the turn ends (no polling). */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { METHOD_PARAMS } from '../../protocol/methods.js';
import type { McpContext } from '../context.js';
import { withProgress } from '../progress.js';
import { answer, guarded } from '../tool-result.js';
import { agentView, agentViewSchema } from '../views.js';
import { toolInput } from '../tool-input.js';

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
        '(`until` narrows it, `timeout_ms` bounds it). Without `wait` it answers at once. ' +
        '`key`: a retry with the same key returns the same turn and types nothing.',
      inputSchema: toolInput(input),
      outputSchema: z.object({
        agent: agentViewSchema,
        turn: z.object({ turn_id: z.string(), state: z.string(), outcome: z.string().optional(), position: z.number().int().optional() }),
      }),
    },
    ({ target, wait, ...params }, extra) =>
      guarded(async () => {
        const { host, id } = context.resolve(target);
        const waitFor = wait === true ? {} : wait === false ? undefined : wait;
        const { agent, turn } = await withProgress(extra, 'waiting for the turn to end', () =>
          host.client.call('agent.prompt', { target: id, ...params, ...(waitFor === undefined ? {} : { wait: waitFor }) }),
        );
        const view = agentView(agent, (pane) => context.qualify(host, pane));
        const receipt = {
          turn_id: turn.turn_id,
          state: turn.state,
          ...(turn.outcome === undefined ? {} : { outcome: turn.outcome }),
          ...(turn.position === undefined ? {} : { position: turn.position }),
        };
        const queued = turn.state === 'queued' ? ` (prompt queued as ${turn.turn_id}, ${turn.position ?? 0} ahead)` : '';
        return answer({ agent: view, turn: receipt }, `${view.name ?? view.pane}: ${view.status}${view.question ? ` — ${view.question}` : ''}${queued}`);
      }),
  );
}
