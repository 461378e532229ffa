/** `prompt_agent`: `agent.prompt`, with the server's own wait until the turn ends (no polling). */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { METHOD_PARAMS } from '../../protocol/methods.js';
import type { McpContext } from '../context.js';
import { withProgress } from '../progress.js';
import { answer, guarded } from '../tool-result.js';
import { agentView, agentViewSchema } from '../views.js';

export function registerPromptAgent(server: McpServer, context: McpContext): void {
  server.registerTool(
    'prompt_agent',
    {
      title: 'Prompt an agent',
      description:
        'Types `text` and Enter into an agent (target: its name, instance id or pane id). ' +
        'With `wait: {}` the answer comes when the turn ends: the agent is done/idle or blocked on a question ' +
        '(`until` narrows it, `timeout_ms` bounds it). Without `wait` it answers at once. ' +
        'Refused with agent_blocked when the agent waits for an answer (send_keys it first).',
      inputSchema: METHOD_PARAMS['agent.prompt'],
      outputSchema: z.object({ agent: agentViewSchema }),
    },
    ({ target, ...params }, extra) =>
      guarded(async () => {
        const { host, id } = context.resolve(target);
        const { agent } = await withProgress(extra, 'waiting for the turn to end', () => host.client.call('agent.prompt', { target: id, ...params }));
        const view = agentView(agent, (pane) => context.qualify(host, pane));
        return answer({ agent: view }, `${view.name ?? view.pane}: ${view.status}${view.question ? ` — ${view.question}` : ''}`);
      }),
  );
}
