/** `fleet`: every pane and agent with its status, the blocked ones first, with their question. */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { METHOD_PARAMS } from '../../protocol/methods.js';
import type { McpContext } from '../context.js';
import { answer, guarded } from '../tool-result.js';
import { agentViewSchema, agentView, byUrgency, paneView, paneViewSchema } from '../views.js';

const output = z.object({
  agents: z.array(agentViewSchema),
  panes: z.array(paneViewSchema),
  blocked: z.number().int().min(0).describe('how many agents wait for an answer'),
});

export function registerFleet(server: McpServer, context: McpContext): void {
  server.registerTool(
    'fleet',
    {
      title: 'List the fleet',
      description:
        'Every agent and pane of the herdr server with its status (blocked, done, working, idle, unknown), most urgent first. ' +
        'A blocked agent carries its question: answer it with send_keys. Ids are stable (w1:p3) and stay valid while the pane lives.',
      inputSchema: METHOD_PARAMS['session.snapshot'],
      outputSchema: output,
      annotations: { readOnlyHint: true },
    },
    () =>
      guarded(async () => {
        const { snapshot } = await context.client.call('session.snapshot', {});
        const names = new Map(snapshot.agents.flatMap((agent) => (agent.name ? [[agent.pane_id, agent.name] as const] : [])));
        const agents = snapshot.agents.map(agentView).sort(byUrgency);
        const panes = snapshot.panes.map((pane) => paneView(pane, names.get(pane.pane_id))).sort(byUrgency);
        const blocked = agents.filter((agent) => agent.status === 'blocked');
        const lines = [
          `${agents.length} agent(s), ${panes.length} pane(s), ${blocked.length} blocked`,
          ...agents.map((agent) => `${agent.pane} ${agent.name ?? agent.kind}: ${agent.status}${agent.question ? ` — ${agent.question}` : ''}`),
        ];
        return answer({ agents, panes, blocked: blocked.length }, lines.join('\n'));
      }),
  );
}
