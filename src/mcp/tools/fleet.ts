/** `fleet`: every pane and agent with its status, the blocked ones first, with their question. */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { METHOD_PARAMS } from '../../protocol/methods.js';
import type { McpContext } from '../context.js';
import { answer, guarded } from '../tool-result.js';
import { type AgentView, type PaneView, agentViewSchema, agentView, byUrgency, paneView, paneViewSchema } from '../views.js';
import { toolInput } from '../tool-input.js';

const output = z.object({
  agents: z.array(agentViewSchema),
  panes: z.array(paneViewSchema),
  blocked: z.number().int().min(0).describe('how many agents wait for an answer'),
  unreachable: z.array(z.object({ host: z.string(), error: z.string() })).optional().describe('servers that could not be asked (with --host)'),
});

export function registerFleet(server: McpServer, context: McpContext): void {
  server.registerTool(
    'fleet',
    {
      title: 'List the fleet',
      description:
        'Every agent and pane of the herdr server with its status (blocked, done, working, idle, unknown), most urgent first. ' +
        'A blocked agent carries its question: answer it with send_keys. Ids are stable (w1:p3) and stay valid while the pane lives.',
      inputSchema: toolInput(METHOD_PARAMS['session.snapshot']),
      outputSchema: output,
      annotations: { readOnlyHint: true },
    },
    () =>
      guarded(async () => {
        const agents: AgentView[] = [];
        const panes: PaneView[] = [];
        const { answers, unreachable } = await context.askAll((host) => host.client.call('session.snapshot', {}));
        for (const { host, value } of answers) {
          const { snapshot } = value;
          const qualify = (id: string) => context.qualify(host, id);
          const names = new Map(snapshot.agents.flatMap((agent) => (agent.name ? [[agent.pane_id, agent.name] as const] : [])));
          agents.push(...snapshot.agents.map((agent) => agentView(agent, qualify)));
          panes.push(...snapshot.panes.map((pane) => paneView(pane, names.get(pane.pane_id), qualify)));
        }
        agents.sort(byUrgency);
        panes.sort(byUrgency);
        const blocked = agents.filter((agent) => agent.status === 'blocked');
        const lines = [
          `${agents.length} agent(s), ${panes.length} pane(s), ${blocked.length} blocked`,
          ...agents.map((agent) => `${agent.pane} ${agent.name ?? agent.kind}: ${agent.status}${agent.question ? ` — ${agent.question}` : ''}`),
        ];
        for (const { host, error } of unreachable) lines.push(`${host}: unreachable (${error})`);
        return answer({ agents, panes, blocked: blocked.length, ...(unreachable.length > 0 ? { unreachable } : {}) }, lines.join('\n'));
      }),
  );
}
