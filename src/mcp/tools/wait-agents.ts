/**
 * `wait_agents`: the first of several agents to reach a status wins. Each
 * target is an `agent.wait` (answered by the server when it happens, never
 * polled), all of them on one connection of the call's own; closing that
 * connection once one answered ends the others' waits on the server.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { HerdrClient, HerdrError } from '../../client/client.js';
import { METHOD_PARAMS } from '../../protocol/methods.js';
import type { Host, McpContext } from '../context.js';
import { withProgress } from '../progress.js';
import { answer, guarded } from '../tool-result.js';
import { type AgentView, agentView, agentViewSchema } from '../views.js';
import { toolInput } from '../tool-input.js';

const waitParams = METHOD_PARAMS['agent.wait'];

const input = waitParams.omit({ target: true }).extend({
  targets: z.array(waitParams.shape.target).min(1).max(64).describe('agents by name, instance id or pane id'),
});

const output = z.object({
  outcome: z.enum(['status', 'exited', 'timeout']).describe('status: `target` reached one of `until`; exited: it ended or its pane closed; timeout: none did in time'),
  target: z.string().optional().describe('the target that ended the wait, as given'),
  agent: agentViewSchema.optional(),
});

type Outcome = { outcome: 'status'; target: string; agent: AgentView } | { outcome: 'exited' | 'timeout'; target: string };

export function registerWaitAgents(server: McpServer, context: McpContext): void {
  server.registerTool(
    'wait_agents',
    {
      title: 'Wait for any of several agents',
      description:
        'Answers as soon as the first of `targets` is in one of `until` (default: idle, done or blocked — at once if one already is), ' +
        'or has exited, or when `timeout_ms` passes. Use it after prompting several agents without `wait`. ' +
        'To wait for finished turns only, pass until: ["done", "blocked"].',
      inputSchema: toolInput(input),
      outputSchema: output,
      annotations: { readOnlyHint: true },
    },
    ({ targets, until, timeout_ms }, extra) =>
      guarded(async () => {
        // A connection of the call's own per server involved.
        const resolved = targets.map((target) => ({ target, ...context.resolve(target) }));
        const waits = new Map<Host, HerdrClient>();
        for (const { host } of resolved) if (!waits.has(host)) waits.set(host, new HerdrClient({ dialer: host.client.dialer }));
        const stop = () => {
          for (const client of waits.values()) client.close();
        };
        extra.signal.addEventListener('abort', stop);
        try {
          const first = await withProgress(extra, 'waiting for an agent', () => Promise.race(
            resolved.map(async ({ target, host, id }): Promise<Outcome> => {
              const client = waits.get(host);
              if (!client) throw new Error(`no connection to ${host.name ?? 'local'}`);
              try {
                const { agent } = await client.call('agent.wait', { target: id, until, timeout_ms });
                return { outcome: 'status', target, agent: agentView(agent, (pane) => context.qualify(host, pane)) };
              } catch (error) {
                if (error instanceof HerdrError && error.code === 'agent_not_running') return { outcome: 'exited', target };
                if (error instanceof HerdrError && error.code === 'timeout') return { outcome: 'timeout', target };
                throw error;
              }
            }),
          ));
          const text =
            first.outcome === 'status'
              ? `${first.target}: ${first.agent.status}${first.agent.question ? ` — ${first.agent.question}` : ''}`
              : first.outcome === 'exited'
                ? `${first.target}: exited`
                : 'timed out';
          return answer(first.outcome === 'timeout' ? { outcome: 'timeout' } : first, text);
        } finally {
          extra.signal.removeEventListener('abort', stop);
          stop();
        }
      }),
  );
}
