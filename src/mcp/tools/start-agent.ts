/**
 * `start_agent`: `agent.start`, optionally in a new git worktree first
 * (`worktree.create`, then the agent typed into that workspace's shell).
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { METHOD_PARAMS } from '../../protocol/methods.js';
import { optional } from '../../protocol/optional.js';
import type { McpContext } from '../context.js';
import { withProgress } from '../progress.js';
import { answer, guarded } from '../tool-result.js';
import { hostParam } from './host-param.js';
import { agentView, agentViewSchema } from '../views.js';
import { toolInput } from '../tool-input.js';

const startParams = METHOD_PARAMS['agent.start'];
const worktreeParams = METHOD_PARAMS['worktree.create'];

const input = startParams.omit({ pane_id: true, focus: true, wait: true }).extend({
  worktree: optional(
    worktreeParams
      .pick({ branch: true, base: true, path: true })
      .describe('make a new git worktree of the repository at cwd (branch, base, path as `git worktree add`) and start the agent in it'),
  ),
  host: optional(hostParam),
});

const output = z.object({
  agent: agentViewSchema,
  argv: z.array(z.string()).describe('what was run'),
  worktree: z.string().optional().describe('the new worktree\'s directory'),
});

export function registerStartAgent(server: McpServer, context: McpContext): void {
  server.registerTool(
    'start_agent',
    {
      title: 'Start an agent',
      description:
        'Starts a coding agent in a new workspace and answers once it is ready for a prompt (idle). ' +
        'Give `kind` (claude, codex, gemini, pi, …; `args` appended) or `command` (any argv), and `cwd`. ' +
        'With `worktree`, a new git worktree of the repository at `cwd` is made first and the agent starts in it. ' +
        'Fails with agent_blocked when it stops at a question at startup (answer with send_keys, then wait_agents).',
      inputSchema: toolInput(input),
      outputSchema: output,
    },
    ({ worktree, host: hostName, ...start }, extra) =>
      guarded(async () => {
        const host = context.host(hostName);
        // Without `cwd`, where herdr mcp stands (the local server); its PATH finds the program.
        const place = context.placeOf(host, start.cwd, start.env);
        let paneId: string | undefined;
        let worktreePath: string | undefined;
        if (worktree) {
          const made = await host.client.call('worktree.create', {
            ...worktree,
            ...(place.cwd === undefined ? {} : { cwd: place.cwd }),
            ...(start.label === undefined ? {} : { label: start.label }),
            focus: false,
          });
          paneId = made.root_pane.stable_id;
          worktreePath = made.worktree.path;
        }
        const { agent, argv } = await withProgress(extra, 'waiting for the agent to be ready', () =>
          host.client.call('agent.start', { ...start, ...(paneId === undefined ? place : { pane_id: paneId, cwd: undefined, env: undefined, label: undefined }) }),
        );
        const view = agentView(agent, (id) => context.qualify(host, id));
        return answer(
          { agent: view, argv, ...(worktreePath === undefined ? {} : { worktree: worktreePath }) },
          `started ${view.name ?? view.kind} in ${view.pane}: ${view.status}${worktreePath ? ` (worktree ${worktreePath})` : ''}`,
        );
      }),
  );
}
